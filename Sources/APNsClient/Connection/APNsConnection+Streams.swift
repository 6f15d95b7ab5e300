import APNsCore
import HTTP2
import Logging
import NIOCore
import Transport

/// Requests in flight: submitting, answering, timing out, and the token rules that act on answers.
extension APNsConnection {
    func start(_ request: NotificationRequest, hasRetriedAfterExpiry: Bool, continuation: UnsafeContinuation<StreamOutcome, Never>) {
        guard phase == .ready, let session = handler.session else {
            continuation.resume(returning: .notProcessed("connection \(id) is no longer taking requests"))
            return
        }
        var token: ProviderToken?
        if case .token(let source) = credential.authentication, var state = tokenState {
            do {
                let action = try state.beforeRequest(source: source)
                let previous = tokenState?.token
                tokenState = state
                switch action {
                case .send(let current):
                    token = current
                    if previous != nil && previous != current { statistics.record(credential: credential.name, .tokenRefreshed) }
                    reportTokenAge(current)
                case .retireConnection:
                    drain(reason: "its provider token is due but may not change yet")
                    continuation.resume(returning: .notProcessed("connection retired for a token change"))
                    return
                }
            } catch {
                continuation.resume(returning: .failed(APNsSendError(.signingFailed, .notProcessed, "cannot sign a provider token: \(error)")))
                return
            }
        }
        do {
            let streamID = try session.submitRequest(headers: RequestHeaders.make(for: request, authority: authority, token: token), body: request.payload)
            pending[streamID] = PendingStream(
                request: request, token: token, hasRetriedAfterExpiry: hasRetriedAfterExpiry,
                continuation: continuation, deadline: .now() + TimeAmount(configuration.requestTimeout)
            )
            armTimeoutSweep()
            handler.scheduleFlush()
        } catch where error.isInvalidHeader {
            // The request itself cannot be sent (checked before anything reached nghttp2): it fails
            // alone, and the connection carries on with every other stream.
            continuation.resume(returning: .failed(APNsSendError(.invalidRequest, .notProcessed, "the request cannot be sent: \(error.message)")))
        } catch {
            continuation.resume(returning: .notProcessed("cannot submit on connection \(id): \(error)"))
            drain(reason: "HTTP/2 refused a new stream")
        }
    }

    func handle(_ event: HTTP2Event) {
        switch event {
        case .message(let streamID, let headers, let body):
            guard let stream = pending.removeValue(forKey: streamID) else { return }
            let status = headers.value(of: ":status").flatMap(Int.init) ?? 0
            answer(stream, with: APNsResponse(status: status, headers: headers.map { ($0.name, $0.value) }, body: body))
        case .streamClosed(let streamID, let errorCode):
            guard let stream = pending.removeValue(forKey: streamID) else { return }
            if errorCode == .refusedStream {
                statistics.record(credential: credential.name, .streamRefused)
                stream.continuation.resume(returning: .notProcessed("stream refused unprocessed"))
            } else {
                stream.continuation.resume(returning: .failed(APNsSendError(.streamReset, .unknown, "APNs reset the stream (\(errorCode))")))
            }
        case .remoteSettings(let maxConcurrentStreams):
            if streamLimit.serverAdvertised(maxConcurrentStreams) { reportLimit() }
        case .goAway(let lastStreamID, let errorCode, let debugData):
            let reason = GoAwayReason.parse(debugData)
            statistics.record(credential: credential.name, .goAway(reason: reason))
            logger.notice("APNs sent GOAWAY", metadata: ["reason": "\(reason)", "last-stream-id": "\(lastStreamID)", "error-code": "\(errorCode)"])
            drain(reason: "GOAWAY \(reason)")
        case .pingAcknowledged(let payload):
            pingAcknowledged(payload)
        case .streamReset:
            break  // the closure that follows carries the outcome
        case .invalidHeader:
            break  // reported to servers only
        }
    }

    private func answer(_ stream: PendingStream, with response: APNsResponse) {
        guard case .rejected(let rejection) = response else {
            if streamLimit.pushAccepted() { reportLimit() }
            stream.continuation.resume(returning: .response(response))
            return
        }
        switch rejection.disposition {
        case .retryAfterTokenRefresh where !stream.hasRetriedAfterExpiry && stream.token != nil:
            retryWithFreshToken(stream, rejection: rejection)
        case .recycleConnection:
            statistics.record(credential: credential.name, .recycled(rejection.reason.name))
            drain(reason: rejection.reason.name)
            stream.continuation.resume(returning: .retryElsewhere(rejection))
        case .credentialFailure:
            logger.error("APNs refused the credential", metadata: ["credential": "\(credential.name)", "reason": "\(rejection.reason)"])
            report(self, .credentialRejected(rejection.reason))
            stream.continuation.resume(returning: .response(response))
        default:
            stream.continuation.resume(returning: .response(response))
        }
    }

    /// `ExpiredProviderToken`: one transparent retry with a new token, or, when this connection may not
    /// change its token yet, retirement and a retry elsewhere.
    private func retryWithFreshToken(_ stream: PendingStream, rejection: APNsRejection) {
        guard case .token(let source) = credential.authentication, var state = tokenState, let rejected = stream.token else { return }
        do {
            let action = try state.afterExpiredToken(rejected, source: source)
            tokenState = state
            switch action {
            case .send:
                statistics.record(credential: credential.name, .tokenRefreshed)
                start(stream.request, hasRetriedAfterExpiry: true, continuation: stream.continuation)
            case .retireConnection:
                drain(reason: "ExpiredProviderToken within 20 minutes of a token change")
                stream.continuation.resume(returning: .retryElsewhere(rejection))
            }
        } catch {
            stream.continuation.resume(returning: .failed(APNsSendError(.signingFailed, .notProcessed, "cannot sign a provider token: \(error)")))
        }
    }

    /// Publishes the age of the token in use, at most once a second per connection (it is on every request).
    private func reportTokenAge(_ token: ProviderToken) {
        let now = NIODeadline.now()
        guard now - lastTokenAgeReport >= .seconds(1) else { return }
        lastTokenAgeReport = now
        if case .token(let source) = credential.authentication {
            statistics.record(credential: credential.name, .tokenAge(seconds: token.age(at: source.now())))
        }
    }

    /// Checks deadlines a few times per request timeout while streams are in flight.
    private func armTimeoutSweep() {
        guard timeoutSweep == nil else { return }
        let interval = max(TimeAmount.milliseconds(10), min(TimeAmount.milliseconds(100), TimeAmount(configuration.requestTimeout / 10)))
        timeoutSweep = eventLoop.assumeIsolated().scheduleTask(in: interval) { [self] in
            timeoutSweep = nil
            let now = NIODeadline.now()
            for (streamID, stream) in pending where stream.deadline <= now {
                timedOut(streamID)
            }
            if !pending.isEmpty { armTimeoutSweep() }
        }
    }

    private func timedOut(_ streamID: Int32) {
        guard let stream = pending.removeValue(forKey: streamID) else { return }
        statistics.record(credential: credential.name, .timedOut)
        try? handler.session?.resetStream(streamID, errorCode: .cancel)
        handler.scheduleFlush()
        stream.continuation.resume(
            returning: .failed(APNsSendError(.timedOut, .unknown, "no answer within \(configuration.requestTimeout); the stream was reset"))
        )
        closeIfIdle()
    }

    private func reportLimit() {
        if phase == .ready { report(self, .streamLimitChanged(streamLimit.effective)) }
    }
}
