import APNsCore
import NIOCore

extension APNsConnectionStateMachine {
    /// What the connection does next, in order.
    enum Action {
        /// Put `submission` on the wire, then report ``streamOpened(_:as:now:)`` or ``submitFailed(_:_:)``.
        case submit(Submission)
        /// The request of `context` ended: resume its caller with the outcome.
        case resume(Context, StreamOutcome)
        /// Tell the pool.
        case report(ConnectionEvent)
        /// Count it in the client's statistics.
        case record(APNsClientStatistics.Event)
        /// Call ``sweepDue(now:)`` after this delay.
        case armTimeoutSweep(in: TimeAmount)
        /// Cancel a stream APNs did not answer in time.
        case resetStream(Int32)
        /// Call ``healthCheckDue(now:)`` after this delay.
        case scheduleHealthCheck(in: TimeAmount)
        /// Send a PING with this payload; call ``pingTimeoutDue(_:)`` with it after `timeout`.
        case sendPing(UInt64, timeout: TimeAmount)
        /// Close gracefully: the connection is draining and idle.
        case close
        /// Close now, dropping the socket: the peer stopped answering.
        case closeAbruptly(reason: String)
    }
}

extension APNsConnectionStateMachine.Action: Equatable where Context: Equatable {}
