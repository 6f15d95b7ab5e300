import APNsCore
import HTTP2
import Logging
import NIOCore
import Transport

/// Carrying out the state machine's actions, on the event loop.
extension APNsConnection {
    func run(_ actions: Machine.Actions) {
        var flush = false
        actions.forEach { action in
            switch action {
            case .submit(let submission):
                submit(submission)
                flush = true
            case .resume(let slot, let outcome):
                requests.remove(slot).answered(outcome)
            case .report(let event):
                log(event)
                report(self, event)
            case .record(let event):
                statistics.record(credential: credential.name, event)
            case .armTimeoutSweep(let delay):
                timers.sweep = eventLoop.assumeIsolated().scheduleTask(in: delay) { [self] in
                    timers.sweep = nil
                    run(machine.sweepDue(now: .now()))
                }
            case .resetStream(let streamID):
                try? handler.session?.resetStream(streamID, errorCode: .cancel)
                flush = true
            case .scheduleHealthCheck(let delay):
                timers.health = eventLoop.assumeIsolated().scheduleTask(in: delay) { [self] in
                    run(machine.healthCheckDue(now: .now()))
                }
            case .sendPing(let payload, let timeout):
                try? handler.session?.submitPing(payload)
                flush = true
                timers.pingTimeout = eventLoop.assumeIsolated().scheduleTask(in: timeout) { [self] in
                    run(machine.pingTimeoutDue(payload))
                }
            case .close:
                handler.close()
            case .closeAbruptly(let reason):
                logger.warning("replacing the connection", metadata: ["reason": "\(reason)"])
                handler.closeAbruptly()
            }
        }
        if flush { handler.scheduleFlush() }
    }

    /// Puts a request on the wire and tells the machine how that went.
    private func submit(_ submission: Machine.Submission) {
        guard let session = handler.session else {
            run(machine.submitFailed(submission, .sessionRefused("the HTTP/2 session is gone")))
            return
        }
        do {
            // Read where it is stored: a copy of the request retained every one of its strings.
            let streamID = try requests.withRequest(in: submission.context) { pending throws(HTTP2Error) in
                switch pending.request {
                case .notification(let request):
                    RequestHeaders.write(for: request, token: submission.token, into: &headerBlock)
                    return try session.submitRequest(headerBlock, body: request.payload)
                case .channel(let request):
                    let headers = RequestHeaders.make(for: request, authority: authority, token: submission.token)
                    return try session.submitRequest(headers: headers, body: request.body)
                }
            }
            run(machine.streamOpened(submission, as: streamID, now: .now()))
        } catch where error.isInvalidHeader {
            run(machine.submitFailed(submission, .invalidRequest(error.message)))
        } catch {
            run(machine.submitFailed(submission, .sessionRefused("\(error)")))
        }
    }

    private func log(_ event: ConnectionEvent) {
        switch event {
        case .ready:
            logger.debug("connection ready", metadata: ["endpoint": "\(endpoint)"])
        case .draining(let reason):
            logger.info("connection draining", metadata: ["reason": "\(reason)"])
        case .credentialRejected(let reason):
            logger.error("APNs refused the credential", metadata: ["credential": "\(credential.name)", "reason": "\(reason)"])
        case .closed(let failure, _):
            if let failure { logger.info("connection closed", metadata: ["error": "\(failure.message)"]) }
        case .streamLimitChanged:
            break
        }
    }
}
