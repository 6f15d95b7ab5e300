/// Closing: cancel the consumer first, give outstanding confirms until a deadline, then close.
extension ConnectionStateMachine {
    /// `close()`: no new publishes or deliveries; the consumer is cancelled first, so the broker stops
    /// delivering before the last acks and rejects go out, and the close completes once every confirm
    /// arrived, the deadline passed, or the connection is gone (see ``tick(now:)``).
    mutating func closeRequested(now: ContinuousClock.Instant, timeout: Duration) -> [ConnectionAction] {
        guard !isClosing else { return [] }
        closing = now + timeout
        if case .down = link { link = .down(reconnectAt: nil) }
        return cancelRequested()
    }

    /// The end of a close: acks still asked for go out, then the connection closes; whatever still waits
    /// fails; the thread stops. Once: the driver carries these actions out while handing the consumer
    /// its last deliveries, and a consumer that publishes from inside that call runs the machine again.
    mutating func finishClose() -> [ConnectionAction] {
        guard !isClosed else { return [] }
        isClosed = true
        var actions = flushSettlements()
        if isConnected { actions.append(.closeConnection) }
        link = .down(reconnectAt: nil)
        actions += failUnconfirmed(AMQPError(.connectionLost, operation: "publish", message: "the client closed before the broker confirmed, so the outcome is unknown"))
        if consumer != nil {
            consumer = nil
            actions.append(.finishDeliveries)
        }
        actions.append(.finishClose)
        return actions
    }
}
