import HTTP2
import Logging
import NIOCore
import Transport

/// Idle health checks: a PING when nothing arrived for a while, and replacement when it goes unanswered.
extension APNsConnection {
    struct HealthCheck {
        var lastFrame = NIODeadline.now()
        var outstandingPing: (payload: UInt64, sentAt: NIODeadline, timeout: Scheduled<Void>)?
        var timer: Scheduled<Void>?
        var nextPayload: UInt64 = 1

        mutating func frameReceived() { lastFrame = .now() }

        mutating func cancel() {
            timer?.cancel()
            outstandingPing?.timeout.cancel()
            timer = nil
            outstandingPing = nil
        }
    }

    func scheduleHealthCheck() {
        let interval = TimeAmount(configuration.pingInterval)
        health.timer = eventLoop.assumeIsolated().scheduleTask(in: interval) { [self] in
            checkHealth()
        }
    }

    private func checkHealth() {
        guard phase == .ready || phase == .draining else { return }
        let idle = NIODeadline.now() - health.lastFrame
        if health.outstandingPing == nil, idle >= TimeAmount(configuration.pingInterval) {
            sendPing()
        }
        scheduleHealthCheck()
    }

    private func sendPing() {
        let payload = health.nextPayload
        health.nextPayload += 1
        do {
            try handler.session?.submitPing(payload)
        } catch {
            return
        }
        handler.scheduleFlush()
        let timeout = eventLoop.assumeIsolated().scheduleTask(in: TimeAmount(configuration.pingTimeout)) { [self] in
            pingTimedOut(payload)
        }
        health.outstandingPing = (payload, .now(), timeout)
    }

    func pingAcknowledged(_ payload: UInt64) {
        guard let ping = health.outstandingPing, ping.payload == payload else { return }
        ping.timeout.cancel()
        health.outstandingPing = nil
        statistics.record(credential: credential.name, .pingRoundTrip(NIODeadline.now() - ping.sentAt))
    }

    private func pingTimedOut(_ payload: UInt64) {
        guard health.outstandingPing?.payload == payload else { return }
        statistics.record(credential: credential.name, .pingTimeout)
        logger.warning("PING unanswered; replacing the connection", metadata: ["timeout": "\(configuration.pingTimeout)"])
        handler.closeAbruptly()
    }
}
