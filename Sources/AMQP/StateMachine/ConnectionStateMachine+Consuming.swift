/// Consuming: the consumer across connections, deliveries, and their acks and rejects.
extension ConnectionStateMachine {
    /// `consume()`: the one consumer of this client starts now on every queue (its caller is answered
    /// once it runs), each queue's broker consumer with that queue's limit of unacked deliveries.
    mutating func consumeRequested(queues: [AMQPConsumedQueue]) -> [ConnectionAction] {
        let name = queues.map(\.name).joined(separator: ", ")
        if let consumer {
            return [.answerConsume(AMQPError(.invalidArgument, operation: "consume \(name)", message: "this client already consumes \(consumer.name); cancel that first"))]
        }
        guard !queues.isEmpty, Set(queues.map(\.name)).count == queues.count else {
            return [.answerConsume(AMQPError(.invalidArgument, operation: "consume \(name)", message: "give one or more distinct queues"))]
        }
        guard isConnected, !isClosing else {
            return [.answerConsume(AMQPError(.notConnected, operation: "consume \(name)", message: isClosing ? "the client is closing" : "the connection is down; reconnecting"))]
        }
        guard queues.allSatisfy({ $0.prefetch > 0 }) else {
            // 0 is "no limit" to the broker: every message of the queue would be delivered at once.
            return [.answerConsume(AMQPError(.invalidArgument, operation: "consume \(name)", message: "give each queue a prefetch of 1 or more"))]
        }
        consumer = Consumer(queues: queues, retryAt: nil, answerPending: true)
        return [.startConsumer(queues: queues)]
    }

    /// The broker consumer of `queue` runs under `tag`, while the rest of a start goes on: its
    /// deliveries may arrive before the other queues' consumers start, and must be taken, not bounced
    /// back to the queue (each bounce counts toward its delivery limit).
    mutating func consumerTagStarted(queue: String, tag: String) {
        consumer?.tags[queue] = tag
    }

    /// A start that failed part-way: the consumers it started on `queues` were cancelled, so those
    /// queues need starting again.
    mutating func consumerTagsCancelled(queues: [String]) {
        for queue in queues { consumer?.tags[queue] = nil }
    }

    /// Consumers run on the current channel under these tags (queue → tag): all the idle queues' at
    /// once, since the driver starts them together or not at all.
    mutating func consumerStarted(tags: [String: String]) -> [ConnectionAction] {
        guard consumer != nil else { return [] }
        consumer?.tags.merge(tags) { _, new in new }
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
            let delay = consumerBackoff.nextDelay(using: &random)
            consumer?.retryAt = now + delay
        }
        if !connectionUsable { actions += connectionFailed(error, now: now) }
        return actions
    }

    /// The broker cancelled consumer `tag` (its queue was deleted): that queue's consumer is started
    /// again with backoff; the other queues' go on.
    mutating func consumerCancelledByBroker(tag: String, now: ContinuousClock.Instant) -> [ConnectionAction] {
        guard let queue = consumer?.queue(ofTag: tag) else { return [] }
        let delay = consumerBackoff.nextDelay(using: &random)
        consumer?.tags[queue] = nil
        consumer?.retryAt = now + delay
        return []
    }

    /// `cancelConsuming()` (or a reader that went away): cancel on the broker, then finish the stream once
    /// ``consumerCancelled()`` reports the cancel done.
    mutating func cancelRequested() -> [ConnectionAction] {
        guard let consumer else { return [] }
        let tags = consumer.queues.compactMap { consumer.tags[$0.name] }
        if !tags.isEmpty, isConnected { return [.cancelConsumer(tags: tags)] }
        return consumerCancelled()
    }

    /// The broker confirmed the cancel (and what it sent before was handed out): the stream ends.
    mutating func consumerCancelled() -> [ConnectionAction] {
        guard let consumer else { return [] }
        self.consumer = nil
        return (consumer.answerPending ? [.answerConsume(AMQPError(.notConnected, operation: "consume \(consumer.name)", message: "cancelled"))] : []) + [.finishDeliveries]
    }

    /// A delivery arrived from consumer `consumerTag`: the queue it came from, or nil when nobody
    /// consumes it (it must go back to the queue).
    mutating func delivered(_ tag: UInt64, consumerTag: String) -> String? {
        guard let consumer, isConnected, let queue = consumer.queue(ofTag: consumerTag) else { return nil }
        deliveries.delivered(tag)
        return queue
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
        var actions: [ConnectionAction] = []
        flushSettlements(into: &actions)
        return actions
    }

    /// ``flushSettlements()`` appended to `actions`, whose storage the caller keeps between flushes: a
    /// flush comes every loop pass, and its array (an action per batch resumed) was large enough that
    /// allocating it each time made glibc consolidate its fast bins.
    mutating func flushSettlements(into actions: inout [ConnectionAction]) {
        guard isConnected else { return }
        for ack in deliveries.flush() { actions.append(.sendAck(deliveryTag: ack.tag, multiple: ack.multiple)) }
        for (batch, outcomes) in batchesAwaitingAck { actions.append(.resumeBatch(batch, outcomes: outcomes, acked: true)) }
        batchesAwaitingAck.removeAll(keepingCapacity: true)
    }
}
