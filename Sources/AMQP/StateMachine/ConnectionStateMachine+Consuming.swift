/// Consuming: the consumer across connections, deliveries, and their acks and rejects.
extension ConnectionStateMachine {
    /// `consume()`: the one consumer of this client starts now (its caller is answered once it runs).
    mutating func consumeRequested(queue: String, prefetch: UInt16) -> [ConnectionAction] {
        if let consumer {
            return [.answerConsume(AMQPError(.invalidArgument, operation: "consume \(queue)", message: "this client already consumes \(consumer.queue); cancel that first"))]
        }
        guard isConnected, closing == nil else {
            return [.answerConsume(AMQPError(.notConnected, operation: "consume \(queue)", message: closing != nil ? "the client is closing" : "the connection is down; reconnecting"))]
        }
        consumer = Consumer(queue: queue, prefetch: prefetch, tag: nil, retryAt: nil, answerPending: true)
        return [.startConsumer(queue: queue, prefetch: prefetch)]
    }

    /// The consumer runs on the current channel under `tag`.
    mutating func consumerStarted(tag: String) -> [ConnectionAction] {
        guard consumer != nil else { return [] }
        consumer?.tag = tag
        consumerBackoff.reset()
        guard consumer?.answerPending == true else { return [] }
        consumer?.answerPending = false
        return [.answerConsume(nil)]
    }

    /// The consumer could not start. On a `consume()` call the caller hears it and the consumer is gone;
    /// on a restart it is tried again with backoff (its queue may come back). A connection-level failure
    /// takes the connection too.
    mutating func consumerFailed(_ error: AMQPError, connectionUsable: Bool, now: ContinuousClock.Instant) -> [ConnectionAction] {
        guard let current = consumer else { return [] }
        var actions: [ConnectionAction] = []
        if current.answerPending {
            consumer = nil
            actions.append(.answerConsume(error))
        } else if connectionUsable {
            consumer?.retryAt = now + consumerBackoff.nextDelay(using: &random)
        }
        if !connectionUsable { actions += connectionFailed(error, now: now) }
        return actions
    }

    /// The broker cancelled consumer `tag` (its queue was deleted): started again with backoff.
    mutating func consumerCancelledByBroker(tag: String, now: ContinuousClock.Instant) -> [ConnectionAction] {
        guard consumer?.tag == tag else { return [] }
        consumer?.tag = nil
        consumer?.retryAt = now + consumerBackoff.nextDelay(using: &random)
        return []
    }

    /// `cancelConsuming()` (or a reader that went away): cancel on the broker, then finish the stream once
    /// ``consumerCancelled()`` reports the cancel done.
    mutating func cancelRequested() -> [ConnectionAction] {
        guard let consumer else { return [] }
        if let tag = consumer.tag, isConnected { return [.cancelConsumer(tag: tag)] }
        return consumerCancelled()
    }

    /// The broker confirmed the cancel (and what it sent before was handed out): the stream ends.
    mutating func consumerCancelled() -> [ConnectionAction] {
        guard let consumer else { return [] }
        self.consumer = nil
        return (consumer.answerPending ? [.answerConsume(AMQPError(.notConnected, operation: "consume \(consumer.queue)", message: "cancelled"))] : []) + [.finishDeliveries]
    }

    /// A delivery arrived; false when nobody consumes (it must go back to the queue).
    mutating func delivered(_ tag: UInt64) -> Bool {
        guard consumer != nil, isConnected else { return false }
        deliveries.delivered(tag)
        return true
    }

    /// An ack or reject from a caller; dropped when it names an older connection's delivery (the broker
    /// requeued that one already, and the tag means something else, or nothing, now).
    mutating func settleRequested(_ tag: UInt64, generation wanted: UInt64, ack: Bool, requeue: Bool = true) -> [ConnectionAction] {
        guard isConnected, wanted == generation else { return [] }
        if ack {
            deliveries.ack(tag)
            return []
        }
        deliveries.rejected(tag)
        return [.sendReject(deliveryTag: tag, requeue: requeue)]
    }

    /// The acks asked for since the last flush, coalesced, then the batches they complete.
    mutating func flushSettlements() -> [ConnectionAction] {
        guard isConnected else { return [] }
        let acks: [ConnectionAction] = deliveries.flush().map { .sendAck(deliveryTag: $0.tag, multiple: $0.multiple) }
        let resumed = batchesAwaitingAck.map { ConnectionAction.resumeBatch($0.0, outcomes: $0.1, acked: true) }
        batchesAwaitingAck = []
        return acks + resumed
    }
}
