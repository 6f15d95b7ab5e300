import APNsCore
import Foundation
import HTTP2
import JSON
import Logging
import NIOCore
import TLS
import Transport

/// One client connection to the mock: validates each request, answers like APNs, injects faults.
///
/// Lives on its channel's event loop, like the handler that drives it; `@unchecked Sendable` only so
/// scheduled answers can refer back to it, and those run on the same loop.
final class MockConnection: SecureHTTP2HandlerDelegate, @unchecked Sendable {
    let server: MockAPNsServer
    let handler: SecureHTTP2Handler
    let eventLoop: any EventLoop
    var auth = ConnectionAuthState(clientCertificateBundleID: nil)
    var requestCount = 0
    /// Set once this connection sent GOAWAY: streams above it are not processed.
    var goAwayLastStreamID: Int32?
    /// The SETTINGS_MAX_CONCURRENT_STREAMS this connection last advertised.
    var advertisedStreams: UInt32 = 1
    /// Draws the identifiers this connection makes up: `apns-id`s for requests that sent none and the
    /// `apns-unique-id`s of accepted pushes (seeded once from the system).
    var uniqueIDs = SplitMix64(seed: UInt64.random(in: .min ... .max))

    init(server: MockAPNsServer, handler: SecureHTTP2Handler, eventLoop: any EventLoop) {
        self.server = server
        self.handler = handler
        self.eventLoop = eventLoop
    }

    func handlerDidBecomeReady(_ handler: SecureHTTP2Handler) {
        auth = ConnectionAuthState(clientCertificate: handler.pipe.tls.peerCertificate)
        server.recorder.update { $0.connectionsOpened += 1 }
        // A certificate connection gets the full limit at once; a token connection one stream until a
        // push with a valid token succeeds, as APNs does.
        if auth.clientCertificateBundleID != nil { advertise(server.configuration.apns.maxConcurrentStreams) }
    }

    func handler(_ handler: SecureHTTP2Handler, didReceive events: [HTTP2Event]) {
        for event in events {
            switch event {
            case .message(let streamID, let headers, let body): receive(MockRequest(headers: headers, body: body), on: streamID)
            case .invalidHeader(let streamID, let name): refuseMalformed(streamID: streamID, headerName: name)
            default: break
            }
        }
        if let pause = server.faults.slowReadMilliseconds {
            handler.pauseReads(for: .milliseconds(Int64(pause)))
        }
    }

    func handler(_ handler: SecureHTTP2Handler, didCloseWith error: (any Error)?) {}

    private func receive(_ request: MockRequest, on streamID: Int32) {
        if let path = request.path, path.hasPrefix("/_mock/") {
            answerControl(request, path: path, on: streamID)
            return
        }
        if let last = goAwayLastStreamID, streamID > last { return }  // after our GOAWAY: not processed
        requestCount += 1
        var requestsSoFar = 0
        server.recorder.update { counts in
            counts.requests += 1
            requestsSoFar = counts.requests
        }
        let faults = server.faults
        if injectStreamFault(faults, on: streamID) { return }
        if let path = request.path, ChannelEndpoint.handles(path) {
            answerChannel(request, on: streamID)
            return
        }
        var verdict = server.validator.validate(request, auth: &auth)
        if verdict == .accept, let forced = server.takeForcedReason() {
            let reason = APNsReason(name: forced)
            verdict = .reject(status: reason.documentedStatus ?? 400, reason: reason)
        } else if verdict == .accept, faults.errorRate > 0, Double.random(in: 0..<1) < faults.errorRate {
            server.recorder.update { $0.injectedErrors += 1 }
            let reason: APNsReason = faults.errorStatus == 429 ? .tooManyRequests : faults.errorStatus == 500 ? .internalServerError : .serviceUnavailable
            verdict = .reject(status: faults.errorStatus, reason: reason)
        }
        // Asked only when the faults just read hold answers: it takes the server's lock again.
        if faults.holdAfterRequests != nil, server.hold(request: requestsSoFar, { [self, verdict] in
            eventLoop.execute { self.answer(request, verdict: verdict, on: streamID, faults: faults) }
        }) {
            return
        }
        let slow = faults.slowAfterRequests.map { requestsSoFar > $0 } ?? false
        let latency = faults.topicLatency.isEmpty ? nil : request.headers.value(of: "apns-topic").flatMap { faults.topicLatency[$0] }
        let delay = (latency ?? (slow ? faults.slowLatency : faults.latency)).sample()
        if delay > 0 {
            eventLoop.assumeIsolated().scheduleTask(in: .microseconds(Int64(delay * 1000))) { [self] in
                answer(request, verdict: verdict, on: streamID, faults: faults)
            }
        } else {
            answer(request, verdict: verdict, on: streamID, faults: faults)
        }
    }

    /// Resets, refusals, stalls and abrupt closes: true when the request gets no normal answer.
    private func injectStreamFault(_ faults: MockFaults, on streamID: Int32) -> Bool {
        func every(_ n: Int?) -> Bool { n.map { $0 > 0 && requestCount % $0 == 0 } ?? false }
        if let limit = faults.closeAfterStreams, requestCount > limit {
            server.recorder.update { $0.connectionsClosedAbruptly += 1 }
            handler.closeAbruptly()
            return true
        }
        if every(faults.refuseEvery) {
            server.recorder.update { $0.streamsRefused += 1 }
            reset(streamID, .refusedStream)
            return true
        }
        if every(faults.resetEvery) {
            server.recorder.update { $0.streamsReset += 1 }
            reset(streamID, .internalError)
            return true
        }
        if every(faults.stallEvery) {
            server.recorder.update { $0.streamsStalled += 1 }
            return true
        }
        return false
    }

    private func answer(_ request: MockRequest, verdict: MockVerdict, on streamID: Int32, faults: MockFaults) {
        guard let session = handler.session else { return }
        let apnsID = request.headers.value(of: "apns-id") ?? APNsID.random(using: &uniqueIDs).description
        var headers = [HTTP2Header(":status", String(verdict.status)), HTTP2Header("apns-id", apnsID)]
        var body: [UInt8] = []
        switch verdict {
        case .accept:
            server.recorder.recordAccepted(apnsID: apnsID)
            if server.configuration.apns.environment == .development {
                // Not Foundation's UUID() (it opens /dev/urandom for every identifier), nor a system draw each.
                headers.append(HTTP2Header("apns-unique-id", APNsID.random(using: &uniqueIDs).description))
            }
            if advertisedStreams != server.configuration.apns.maxConcurrentStreams { advertise(server.configuration.apns.maxConcurrentStreams) }
        case .reject(let status, let reason, let timestamp):
            server.recorder.update { $0.rejectedByReason[reason.name, default: 0] += 1 }
            headers.append(HTTP2Header("content-type", "application/json"))
            if status == faults.errorStatus, let retryAfter = faults.retryAfterSeconds {
                headers.append(HTTP2Header("retry-after", String(retryAfter)))
            }
            let timestampJSON = timestamp.map { ",\"timestamp\":\($0)" } ?? ""
            body = Array("{\"reason\":\"\(reason.name)\"\(timestampJSON)}".utf8)
            if let lowered = server.configuration.apns.streamsAfterRejection, advertisedStreams != lowered { advertise(lowered) }
        }
        try? session.submitResponse(streamID: streamID, headers: headers, body: body)
        if let after = faults.goAwayAfterStreams, goAwayLastStreamID == nil, requestCount >= after {
            goAway(lastStreamID: streamID, reason: faults.goAwayReason)
        }
        handler.scheduleFlush()
    }

    /// A broadcast-channel request (management or broadcast), answered at once.
    private func answerChannel(_ request: MockRequest, on streamID: Int32) {
        guard let session = handler.session else { return }
        let endpoint = ChannelEndpoint(validator: server.validator, directory: server.channels)
        var answer: ChannelAnswer
        if let forced = server.takeForcedReason() {
            answer = ChannelAnswer(APNsReason(name: forced))
        } else {
            answer = endpoint.answer(
                request, auth: &auth,
                // Base64 of 16 random bytes, padding included: Apple's ids are base64 of unstated length.
                newID: { Data(withUnsafeBytes(of: (uniqueIDs.next(), uniqueIDs.next())) { Array($0) }).base64EncodedString() },
                newRequestID: { APNsID.random(using: &uniqueIDs).value }
            )
        }
        server.recorder.update { counts in
            counts.channelRequests += 1
            if answer.status >= 300, let reason = try? JSONReader.parse(answer.body), case .object(let fields) = reason, case .string(let name)? = fields["reason"] {
                counts.rejectedByReason[name, default: 0] += 1
            }
        }
        if answer.status < 300, advertisedStreams != server.configuration.apns.maxConcurrentStreams { advertise(server.configuration.apns.maxConcurrentStreams) }
        let headers = [HTTP2Header(":status", String(answer.status))] + answer.headers.map { HTTP2Header($0.0, $0.1) }
        try? session.submitResponse(streamID: streamID, headers: headers, body: answer.body)
        handler.scheduleFlush()
    }

    private func goAway(lastStreamID: Int32, reason: String) {
        goAwayLastStreamID = lastStreamID
        server.recorder.update { $0.goAwaysSent += 1 }
        try? handler.session?.submitGoAway(lastStreamID: lastStreamID, errorCode: .noError, debugData: Array("{\"reason\":\"\(reason)\"}".utf8))
        // Give the client a moment to read the answers up to lastStreamID, then hang up.
        eventLoop.assumeIsolated().scheduleTask(in: .milliseconds(200)) { [self] in handler.close() }
    }

    private func reset(_ streamID: Int32, _ code: HTTP2ErrorCode) {
        try? handler.session?.resetStream(streamID, errorCode: code)
        handler.scheduleFlush()
    }

    private func advertise(_ streams: UInt32) {
        advertisedStreams = streams
        try? handler.session?.submitSettings(HTTP2Settings(maxConcurrentStreams: streams))
        handler.scheduleFlush()
    }
}
