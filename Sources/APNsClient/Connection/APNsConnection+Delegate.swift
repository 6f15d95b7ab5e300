import APNsCore
import HTTP2
import Logging
import NIOCore
import Transport

/// Socket-level events from the NIO driver, fed to the state machine one by one, each one's actions
/// carried out before the next: a token retry is on the wire before a GOAWAY in the same read is seen.
extension APNsConnection: SecureHTTP2HandlerDelegate {
    func handlerDidBecomeReady(_ handler: SecureHTTP2Handler) {
        run(machine.connected(now: .now()))
    }

    func handler(_ handler: SecureHTTP2Handler, didReceive events: [HTTP2Event]) {
        machine.framesReceived(now: .now())
        for event in events {
            run(actions(for: event))
        }
    }

    func handler(_ handler: SecureHTTP2Handler, didCloseWith error: (any Error)?) {
        timers.cancelAll()
        run(machine.closed(error.map { Self.sendError(for: $0, endpoint: endpoint) }))
    }

    private func actions(for event: HTTP2Event) -> Machine.Actions {
        switch event {
        case .message(let streamID, let headers, let body):
            // One pass, and no array of the headers made for the response: every answer comes here.
            var status = 0
            var fields = APNsResponse.HeaderFields()
            for header in headers {
                if header.name == ":status" { status = Int(header.value) ?? 0 } else { fields.take(name: header.name, value: header.value) }
            }
            return machine.responseReceived(streamID, APNsResponse(status: status, fields: fields, body: body))
        case .streamClosed(let streamID, let errorCode):
            return machine.streamClosed(streamID, errorCode: errorCode)
        case .remoteSettings(let maxConcurrentStreams):
            return machine.serverSettings(maxConcurrentStreams: maxConcurrentStreams)
        case .goAway(let lastStreamID, let errorCode, let debugData):
            let reason = GoAwayReason.parse(debugData)
            logger.notice("APNs sent GOAWAY", metadata: ["reason": "\(reason)", "last-stream-id": "\(lastStreamID)", "error-code": "\(errorCode)"])
            return machine.goAway(reason: reason)
        case .pingAcknowledged(let payload):
            return machine.pingAcknowledged(payload, now: .now())
        case .streamReset, .invalidHeader:
            return []  // a reset's closure follows and carries the outcome; invalid headers are a server's concern
        }
    }
}
