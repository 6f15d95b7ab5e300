/// Publishing: confirms, returns, and batches whose delivery is acked once all their messages are confirmed.
extension ConnectionStateMachine {
    /// A caller wants publish `id` written, on connection `wanted` only when given.
    mutating func publishRequested(_ id: PublishID, generation wanted: UInt64?) -> [ConnectionAction] {
        guard isConnected, closing == nil else {
            let reason = closing != nil ? "the client is closing" : "the connection is down; reconnecting"
            return settle(id, .failure(AMQPError(.notConnected, operation: "publish", message: reason)))
        }
        if let wanted, wanted != generation {
            return settle(id, .failure(AMQPError(.notConnected, operation: "publish", message: "the connection it was meant for (generation \(wanted)) is gone")))
        }
        return [.send(id, sequence: confirms.sent(id))]
    }

    /// The driver would not write publish `id` (AMQP cannot encode it): it fails alone, nothing was sent.
    mutating func publishRefused(_ id: PublishID, _ error: AMQPError) -> [ConnectionAction] {
        settle(id, .failure(error))
    }

    /// Messages published together for one delivery, acked once every one of them is confirmed. The
    /// driver then asks for each member with ``publishRequested(_:generation:)`` or ``publishRefused(_:_:)``.
    mutating func batchRequested(_ batch: BatchID, members: some Collection<PublishID>, deliveryTag: UInt64, deliveryGeneration: UInt64) -> [ConnectionAction] {
        batches[batch] = Batch(
            outcomes: Array(repeating: Batch.placeholder, count: members.count), unsettled: members.count,
            deliveryTag: deliveryTag, deliveryGeneration: deliveryGeneration
        )
        for (index, id) in members.enumerated() { self.members[id] = (batch, index) }
        guard members.isEmpty, let done = batches.removeValue(forKey: batch) else { return [] }
        return resolve(done, batch)
    }

    /// A `basic.ack` (`positive`) or `basic.nack` from the broker for publish `tag` (and all before it
    /// when `multiple`).
    mutating func confirmReceived(_ tag: UInt64, multiple: Bool, positive: Bool) -> [ConnectionAction] {
        confirms.settle(deliveryTag: tag, multiple: multiple, positive: positive).flatMap { id, outcome in
            settle(id, .success(outcome))
        }
    }

    /// A `basic.return` of the publish numbered `sequence`: its confirm will settle it as returned.
    mutating func returned(sequence: UInt64, replyCode: UInt16, replyText: String) {
        confirms.returned(sequence: sequence, replyCode: replyCode, replyText: replyText)
    }

    /// Publish `id` has its outcome: resumed alone, or recorded in its batch.
    mutating func settle(_ id: PublishID, _ outcome: Result<AMQPPublishOutcome, AMQPError>) -> [ConnectionAction] {
        guard let (batch, index) = members.removeValue(forKey: id) else { return [.resumePublish(id, outcome)] }
        // Taken out and put back rather than changed in place: `Dictionary`'s `modify` accessor is a
        // coroutine whose frame is heap-allocated, and this runs for every confirm.
        guard var pending = batches.removeValue(forKey: batch) else { return [] }
        pending.outcomes[index] = outcome
        pending.unsettled -= 1
        guard pending.unsettled == 0 else {
            batches[batch] = pending
            return []
        }
        return resolve(pending, batch)
    }

    /// Every message of `batch` has its outcome: all confirmed on a live connection of its delivery's
    /// generation, and its ack goes out with the next flush (and the batch resumes after it); anything
    /// else, and it resumes now, un-acked.
    private mutating func resolve(_ done: Batch, _ batch: BatchID) -> [ConnectionAction] {
        let outcomes = done.outcomes
        let confirmed = outcomes.allSatisfy { $0 == .success(.confirmed) }
        guard confirmed, isConnected, done.deliveryGeneration == generation else {
            return [.resumeBatch(batch, outcomes: outcomes, acked: false)]
        }
        deliveries.ack(done.deliveryTag)
        batchesAwaitingAck.append((batch, outcomes))
        return []
    }
}
