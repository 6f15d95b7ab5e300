internal import NumberedWindows

/// Publishing: confirms, returns, and batches whose delivery is acked once all their messages are confirmed.
extension ConnectionStateMachine {
    /// A caller wants publish `id` written, on connection `wanted` only when given.
    mutating func publishRequested(_ id: PublishID, generation wanted: UInt64?) -> [ConnectionAction] {
        guard isConnected, !isClosing else {
            let reason = isClosing ? "the client is closing" : "the connection is down; reconnecting"
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
        batches.insert(
            Batch(
                outcomes: PublishOutcomes(count: members.count), unsettled: members.count,
                deliveryTag: deliveryTag, deliveryGeneration: deliveryGeneration
            ),
            at: batch
        )
        for (index, id) in members.enumerated() { self.members.insert((batch, index), at: id) }
        guard members.isEmpty, let done = batches.removeValue(at: batch) else { return [] }
        return resolve(done, batch)
    }

    /// A `basic.ack` (`positive`) or `basic.nack` from the broker for publish `tag` (and all before it
    /// when `multiple`).
    mutating func confirmReceived(_ tag: UInt64, multiple: Bool, positive: Bool) -> [ConnectionAction] {
        var settled: [(PublishID, AMQPPublishOutcome)] = []
        swap(&settled, &settledStorage)
        confirms.settle(deliveryTag: tag, multiple: multiple, positive: positive) { settled.append(($0, $1)) }
        var actions: [ConnectionAction] = []
        for (id, outcome) in settled { actions += settle(id, .success(outcome)) }
        settled.removeAll(keepingCapacity: true)
        swap(&settled, &settledStorage)
        return actions
    }

    /// A `basic.return` of the publish numbered `sequence`: its confirm will settle it as returned.
    mutating func returned(sequence: UInt64, replyCode: UInt16, replyText: String) {
        confirms.returned(sequence: sequence, replyCode: replyCode, replyText: replyText)
    }

    /// Publish `id` has its outcome: resumed alone, or recorded in its batch.
    mutating func settle(_ id: PublishID, _ outcome: Result<AMQPPublishOutcome, AMQPError>) -> [ConnectionAction] {
        guard let (batch, index) = members.removeValue(at: id) else { return [.resumePublish(id, outcome)] }
        var unsettled = 0
        batches.update(at: batch) { pending in
            pending.outcomes[index] = outcome
            pending.unsettled -= 1
            unsettled = pending.unsettled
        }
        guard unsettled == 0, let done = batches.removeValue(at: batch) else { return [] }
        return resolve(done, batch)
    }

    /// Every message of `batch` has its outcome: all confirmed on a live connection of its delivery's
    /// generation, and its ack goes out with the next flush (and the batch resumes after it); anything
    /// else, and it resumes now, un-acked.
    private mutating func resolve(_ done: Batch, _ batch: BatchID) -> [ConnectionAction] {
        let outcomes = done.outcomes
        let confirmed = outcomes.allConfirmed
        guard confirmed, isConnected, done.deliveryGeneration == generation else {
            return [.resumeBatch(batch, outcomes: outcomes, acked: false)]
        }
        deliveries.ack(done.deliveryTag)
        batchesAwaitingAck.append((batch, outcomes))
        return []
    }
}
