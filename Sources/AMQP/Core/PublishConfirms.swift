internal import NumberedWindows

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
    /// Each unsettled publish's waiter, and its return when the broker sent one.
    private var waiters = NumberedWindow<(waiter: Waiter, returned: AMQPPublishOutcome?)>()

    /// Publishes awaiting a confirm.
    var count: Int { waiters.count }

    /// Records that the publish numbered ``nextSequence`` was sent, and returns that number.
    @discardableResult
    mutating func sent(_ waiter: Waiter) -> UInt64 {
        let sequence = nextSequence
        waiters.insert((waiter, nil), at: sequence)
        nextSequence += 1
        return sequence
    }

    /// A `basic.return` for the publish numbered `sequence`: its ack will settle it as returned.
    mutating func returned(sequence: UInt64, replyCode: UInt16, replyText: String) {
        waiters.update(at: sequence) { $0.returned = .returned(replyCode: replyCode, replyText: replyText) }
    }

    /// A `basic.ack` (`positive`) or `basic.nack`: hands each settled publish to `body`, oldest first,
    /// with its outcome. (A callback rather than an array: a `multiple` ack settles a whole batch, and
    /// the array grew by doubling through several allocations on every one.)
    mutating func settle(deliveryTag: UInt64, multiple: Bool, positive: Bool, _ body: (Waiter, AMQPPublishOutcome) -> Void) {
        guard !waiters.isEmpty else { return }
        // Everything below the oldest unsettled publish is settled already, so a late `multiple` ack
        // has nothing to add.
        let first = multiple ? waiters.oldest : deliveryTag
        // No publish above the newest sent is waiting (a broker's tag beyond it settles nothing more).
        let last = min(deliveryTag, nextSequence - 1)
        guard last >= first else { return }
        for tag in first...last {
            guard let (waiter, returned) = waiters.removeValue(at: tag) else { continue }
            body(waiter, positive ? returned ?? .confirmed : .nacked)
        }
    }

    /// The channel is gone: every waiter, oldest first, and a fresh numbering for the next channel.
    mutating func reset() -> [Waiter] {
        let pending = waiters.removeAll().map(\.waiter)
        self = PublishConfirms()
        return pending
    }
}
