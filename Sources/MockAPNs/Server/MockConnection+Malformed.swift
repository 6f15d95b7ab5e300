import APNsCore
import HTTP2
import Logging
import NIOCore
import Transport

/// A request with a header field HTTP/2 forbids (RFC 9113 §8.2.1: NUL, CR or LF in a value, whitespace
/// at either end, an uppercase name): the mock answers as the strictest servers do, by ending the whole
/// connection with GOAWAY(PROTOCOL_ERROR), so a client that lets one bad value through loses every
/// stream in flight — which the tests would see.
extension MockConnection {
    func refuseMalformed(streamID: Int32, headerName: String) {
        server.recorder.update { $0.malformedRequests += 1 }
        server.logger.warning("malformed header field; ending the connection", metadata: ["stream": "\(streamID)", "header": "\(UntrustedText.escaped(headerName.prefix(64)))"])
        goAwayLastStreamID = goAwayLastStreamID ?? 0
        try? handler.session?.terminate(errorCode: .protocolError)
        handler.scheduleFlush()
        eventLoop.assumeIsolated().scheduleTask(in: .milliseconds(200)) { [self] in handler.close() }
    }
}
