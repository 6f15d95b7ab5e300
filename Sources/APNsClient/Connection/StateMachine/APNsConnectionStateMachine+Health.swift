import NIOCore

/// Idle health checks: a PING when nothing arrived for a while, and replacement when it goes unanswered.
extension APNsConnectionStateMachine {
    struct HealthState: Equatable {
        var lastFrame = NIODeadline.uptimeNanoseconds(0)
        var outstandingPing: (payload: UInt64, sentAt: NIODeadline)?
        var nextPayload: UInt64 = 1

        static func == (lhs: Self, rhs: Self) -> Bool {
            lhs.lastFrame == rhs.lastFrame && lhs.nextPayload == rhs.nextPayload
                && lhs.outstandingPing?.payload == rhs.outstandingPing?.payload && lhs.outstandingPing?.sentAt == rhs.outstandingPing?.sentAt
        }
    }

    /// The health check's timer fired.
    mutating func healthCheckDue(now: NIODeadline) -> Actions {
        guard phase == .ready || phase == .draining else { return [] }
        var actions: Actions = []
        if health.outstandingPing == nil, now - health.lastFrame >= timing.pingInterval {
            let payload = health.nextPayload
            health.nextPayload += 1
            // Outstanding from here: a PING HTTP/2 could not even queue is a broken session, which the
            // timeout replaces like an unanswered one.
            health.outstandingPing = (payload, now)
            actions.append(.sendPing(payload, timeout: timing.pingTimeout))
        }
        actions.append(.scheduleHealthCheck(in: timing.pingInterval))
        return actions
    }

    /// The peer acknowledged PING `payload`.
    mutating func pingAcknowledged(_ payload: UInt64, now: NIODeadline) -> Actions {
        guard let ping = health.outstandingPing, ping.payload == payload else { return [] }
        health.outstandingPing = nil
        return [.record(.pingRoundTrip(now - ping.sentAt))]
    }

    /// PING `payload`'s timeout passed.
    mutating func pingTimeoutDue(_ payload: UInt64) -> Actions {
        guard phase != .closed, health.outstandingPing?.payload == payload else { return [] }
        return [.record(.pingTimeout), .closeAbruptly(reason: "PING unanswered within \(timing.pingTimeout)")]
    }
}
