/// The publisher-confirm bookkeeping of one channel: which publishes await the broker's verdict, and how
/// acks, nacks and returns settle them. No I/O; `Waiter` is whatever the caller resumes.
///
/// In confirm mode the broker numbers publishes 1, 2, 3 … per channel. An ack or nack with `multiple`
/// settles every publish up to its tag. A `basic.return` carries no sequence number, so each publish puts
/// its own in the ``sequenceHeader`` header, and the returned message's properties give it back; the
/// broker sends the return before the ack of the same publish, so the ack then settles it as returned.
struct PublishConfirms<Waiter> {
    /// The message header carrying the publish sequence number; removed again from deliveries.
    static var sequenceHeader: String { "x-publish-seq" }

    /// The sequence number the next publish gets.
    private(set) var nextSequence: UInt64 = 1
    private var waiters: [UInt64: Waiter] = [:]
    private var returns: [UInt64: AMQPPublishOutcome] = [:]
    /// No unsettled publish is below this; keeps `multiple` acks linear overall.
    private var lowestUnsettled: UInt64 = 1

    /// Publishes awaiting a confirm.
    var count: Int { waiters.count }

    /// Records that the publish numbered ``nextSequence`` was sent, and returns that number.
    @discardableResult
    mutating func sent(_ waiter: Waiter) -> UInt64 {
        let sequence = nextSequence
        waiters[sequence] = waiter
        nextSequence += 1
        return sequence
    }

    /// A `basic.return` for the publish numbered `sequence`: its ack will settle it as returned.
    mutating func returned(sequence: UInt64, replyCode: UInt16, replyText: String) {
        guard waiters[sequence] != nil else { return }
        returns[sequence] = .returned(replyCode: replyCode, replyText: replyText)
    }

    /// A `basic.ack` (`positive`) or `basic.nack`: the settled publishes, oldest first, with their outcomes.
    mutating func settle(deliveryTag: UInt64, multiple: Bool, positive: Bool) -> [(Waiter, AMQPPublishOutcome)] {
        var settled: [(Waiter, AMQPPublishOutcome)] = []
        // Everything below lowestUnsettled is settled already, so a late `multiple` ack has nothing to add.
        let first = multiple ? lowestUnsettled : deliveryTag
        guard deliveryTag >= first else { return [] }
        for tag in first...deliveryTag {
            guard let waiter = waiters.removeValue(forKey: tag) else { continue }
            let returnOutcome = returns.removeValue(forKey: tag)
            settled.append((waiter, positive ? returnOutcome ?? .confirmed : .nacked))
        }
        while lowestUnsettled < nextSequence, waiters[lowestUnsettled] == nil {
            lowestUnsettled += 1
        }
        return settled
    }

    /// The channel is gone: every waiter, oldest first, and a fresh numbering for the next channel.
    mutating func reset() -> [Waiter] {
        let pending = waiters.sorted { $0.key < $1.key }.map(\.value)
        self = PublishConfirms()
        return pending
    }
}
