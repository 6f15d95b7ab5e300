internal import Logging
internal import Synchronization

extension ConnectionDriver {
    /// Starts closing: no new deliveries or publishes; outstanding confirms get until the deadline.
    func beginClose(_ waiter: CheckedContinuation<Void, Never>?) {
        if closing == nil {
            closing = Closing(deadline: clock.now + options.closeTimeout, waiters: [])
            // Cancel first: acks sent just before a channel closes can be lost by quorum queues (3.10).
            stopConsuming()
        }
        if let waiter { closing?.waiters.append(waiter) }
    }

    /// Finishes the close once every confirm arrived, the deadline passed, or the connection is gone.
    func progressClose() {
        guard let closing, confirms.count == 0 || clock.now >= closing.deadline || connection == nil else { return }
        connection?.close()
        connection = nil
        counters.connected.store(false, ordering: .relaxed)
        counters.consuming.store(false, ordering: .relaxed)
        let unknown = AMQPError(.connectionLost, operation: "publish", message: "the client closed before the broker confirmed, so the outcome is unknown")
        let pending = confirms.reset()
        counters.unconfirmed.store(0, ordering: .relaxed)
        for waiter in pending { waiter.resume(throwing: unknown) }
        consumer?.stream.finish()
        consumer = nil
        let (_, leftovers) = mailbox.close()
        for command in leftovers {
            command.fail(AMQPError(.notConnected, operation: command.operation, message: "the client is closed"))
        }
        for waiter in closing.waiters { waiter.resume() }
        finished = true
        logger.debug("AMQP client closed")
    }
}
