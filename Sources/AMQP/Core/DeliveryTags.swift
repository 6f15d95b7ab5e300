/// The deliveries of the current channel not yet acked or rejected, and the acks asked for since the last
/// flush: a run of asks that covers the oldest outstanding deliveries goes out as one `basic.ack` with
/// `multiple`, instead of one frame per job. No I/O.
struct DeliveryTags: Equatable {
    /// Outstanding delivery tags, oldest first (the broker numbers deliveries in order).
    private var outstanding: [UInt64] = []
    private var start = 0
    /// Acks asked for since the last flush.
    private var asked: Set<UInt64> = []

    /// How many deliveries are outstanding.
    var count: Int { outstanding.count - start }

    /// A delivery arrived.
    mutating func delivered(_ tag: UInt64) {
        outstanding.append(tag)
    }

    /// An ack for `tag` is wanted; it goes out at the next ``flush()``.
    mutating func ack(_ tag: UInt64) {
        asked.insert(tag)
    }

    /// `tag` is rejected (sent at once): it is no longer outstanding.
    mutating func rejected(_ tag: UInt64) {
        asked.remove(tag)
        remove([tag])
    }

    /// The ack frames for everything asked since the last flush: one `multiple` ack for the longest run
    /// of asks at the front of the outstanding deliveries, single acks for the rest.
    mutating func flush() -> [(tag: UInt64, multiple: Bool)] {
        guard !asked.isEmpty else { return [] }
        var frames: [(tag: UInt64, multiple: Bool)] = []
        var prefix = start
        while prefix < outstanding.count, asked.contains(outstanding[prefix]) { prefix += 1 }
        if prefix > start {
            let last = outstanding[prefix - 1]
            frames.append((last, prefix - start > 1))
            for index in start..<prefix { asked.remove(outstanding[index]) }
            start = prefix
        }
        // Asks behind a delivery still in progress, and asks for tags not outstanding (a duplicate ack
        // would close the channel, so those are dropped).
        let rest = asked.filter { tag in outstanding[start...].contains(tag) }.sorted()
        frames += rest.map { ($0, false) }
        remove(rest)
        asked.removeAll()
        compact()
        return frames
    }

    /// The channel is gone: nothing is outstanding any more.
    mutating func reset() {
        self = DeliveryTags()
    }

    private mutating func remove(_ tags: [UInt64]) {
        guard !tags.isEmpty else { return }
        let gone = Set(tags)
        outstanding = Array(outstanding[start...].filter { !gone.contains($0) })
        start = 0
    }

    /// Drops the settled front of the array once it is the larger part.
    private mutating func compact() {
        if start > 64, start * 2 > outstanding.count {
            outstanding.removeFirst(start)
            start = 0
        }
    }

    static func == (lhs: DeliveryTags, rhs: DeliveryTags) -> Bool {
        Array(lhs.outstanding[lhs.start...]) == Array(rhs.outstanding[rhs.start...]) && lhs.asked == rhs.asked
    }
}
