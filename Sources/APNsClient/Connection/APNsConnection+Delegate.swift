import APNsCore
import HTTP2
import Logging
import NIOCore
import Transport

/// Socket-level events from the NIO driver.
extension APNsConnection: SecureHTTP2HandlerDelegate {
    func handlerDidBecomeReady(_ handler: SecureHTTP2Handler) {
        guard phase == .connecting else { return }
        phase = .ready
        statistics.record(credential: credential.name, .connected)
        logger.debug("connection ready", metadata: ["endpoint": "\(endpoint)"])
        report(self, .ready(streamLimit: streamLimit.effective))
        scheduleHealthCheck()
    }

    func handler(_ handler: SecureHTTP2Handler, didReceive events: [HTTP2Event]) {
        health.frameReceived()
        for event in events {
            handle(event)
        }
        closeIfIdle()
    }

    func handler(_ handler: SecureHTTP2Handler, didCloseWith error: (any Error)?) {
        let wasReady = phase != .connecting
        phase = .closed
        health.cancel()
        timeoutSweep?.cancel()
        let lost = pending
        pending.removeAll()
        for (_, stream) in lost {
            stream.continuation.resume(returning: .failed(APNsSendError(.connectionLost, .unknown, "the connection closed before APNs answered")))
        }
        if let error { logger.info("connection closed", metadata: ["error": "\(error)"]) }
        report(self, .closed(error: error, wasReady: wasReady))
    }
}
