internal import NumberedWindows

/// The deliveries of the current channel not yet acked or rejected, and the acks asked for since the last
/// flush: a run of asks that covers the oldest outstanding deliveries goes out as one `basic.ack` with
/// `multiple`, instead of one frame per job. No I/O.
struct DeliveryTags: Equatable {
    /// Outstanding deliveries (the broker numbers them in order), each with whether its ack was asked.
    private var outstanding = NumberedWindow<Bool>()
    /// The tags asked for since the last flush, in the order asked.
    private var asked: [UInt64] = []

    /// How many deliveries are outstanding.
    var count: Int { outstanding.count }

    /// A delivery arrived.
    mutating func delivered(_ tag: UInt64) {
        outstanding.insert(false, at: tag)
    }

    /// An ack for `tag` is wanted; it goes out at the next ``flush()``. A tag not outstanding is
    /// dropped: a duplicate ack would close the channel.
    mutating func ack(_ tag: UInt64) {
        guard outstanding[tag] == false else { return }
        outstanding.update(at: tag) { $0 = true }
        asked.append(tag)
    }

    /// `tag` is rejected (sent at once): it is no longer outstanding.
    mutating func rejected(_ tag: UInt64) {
        outstanding.removeValue(at: tag)
    }

    /// The ack frames for everything asked since the last flush: one `multiple` ack for the longest run
    /// of asks at the front of the outstanding deliveries, single acks for the rest, in tag order.
    mutating func flush() -> [(tag: UInt64, multiple: Bool)] {
        guard !asked.isEmpty else { return [] }
        var frames: [(tag: UInt64, multiple: Bool)] = []
        var run = 0
        var last: UInt64 = 0
        while !outstanding.isEmpty, outstanding[outstanding.oldest] == true {
            last = outstanding.oldest
            outstanding.removeValue(at: last)
            run += 1
        }
        if run > 0 { frames.append((last, run > 1)) }
        // Asks behind a delivery still in progress. A tag asked twice, or rejected since, is gone already.
        asked.sort()
        for tag in asked where outstanding[tag] == true {
            outstanding.removeValue(at: tag)
            frames.append((tag, false))
        }
        asked.removeAll(keepingCapacity: true)
        return frames
    }

    /// The channel is gone: nothing is outstanding any more.
    mutating func reset() {
        self = DeliveryTags()
    }

    static func == (lhs: DeliveryTags, rhs: DeliveryTags) -> Bool {
        lhs.outstanding.elements.elementsEqual(rhs.outstanding.elements) { $0.number == $1.number && $0.value == $1.value }
    }
}
