/// A connection's streams on the wire, by HTTP/2 stream id: a table whose bucket is the id itself,
/// with no hashing, and a dictionary for the rare stream whose bucket is taken.
///
/// A client's stream ids are odd and rise by two, one per request, so `id >> 1` puts the streams in
/// flight in consecutive buckets: while the table has twice as many buckets as streams, a stream finds
/// its bucket taken only when a stream opened a table's width of requests earlier is still open. Such
/// a stream goes to the dictionary. `Dictionary` alone hashed every id with SipHash on every request
/// and every answer, which `perf` put at about 2.4 % of the client's CPU with four connections of a
/// thousand streams. (Open addressing with linear probing was tried first: the streams in flight form
/// one run of full buckets, and each deletion walked the rest of the run.)
struct OpenStreams<Value> {
    private var buckets: [Entry?]
    /// Streams whose bucket another stream held when they opened.
    private var displaced: [Int32: Value] = [:]
    private(set) var count = 0

    private struct Entry {
        let id: Int32
        var value: Value
    }

    /// An empty table of `capacity` buckets (a power of two); it doubles as streams are added.
    init(capacity: Int = 16) {
        precondition(capacity > 0 && capacity & (capacity - 1) == 0, "the capacity must be a power of two")
        buckets = Array(repeating: nil, count: capacity)
    }

    var isEmpty: Bool { count == 0 }

    /// The ids of the streams held, in ascending order (the order streams opened in).
    var ids: [Int32] {
        (buckets.compactMap { $0?.id } + displaced.keys).sorted()
    }

    /// The value of stream `id`, if it is held.
    subscript(id: Int32) -> Value? {
        if let entry = buckets[bucket(of: id)], entry.id == id { return entry.value }
        return displaced.isEmpty ? nil : displaced[id]
    }

    /// Holds `value` for stream `id`, in place of the one it held if any.
    mutating func insert(_ value: Value, for id: Int32) {
        let index = bucket(of: id)
        if let entry = buckets[index] {
            if entry.id == id {
                buckets[index]?.value = value
            } else if displaced.updateValue(value, forKey: id) == nil {
                added()
            }
            return
        }
        // An id displaced earlier, whose bucket has emptied since, moves to it: it is counted already.
        let wasDisplaced = !displaced.isEmpty && displaced.removeValue(forKey: id) != nil
        buckets[index] = Entry(id: id, value: value)
        if !wasDisplaced { added() }
    }

    /// Takes stream `id`'s value out, if it is held.
    mutating func removeValue(for id: Int32) -> Value? {
        let index = bucket(of: id)
        if let entry = buckets[index], entry.id == id {
            buckets[index] = nil
            count -= 1
            return entry.value
        }
        guard !displaced.isEmpty, let value = displaced.removeValue(forKey: id) else { return nil }
        count -= 1
        return value
    }

    /// Empties the table, keeping its buckets.
    mutating func removeAll() {
        for index in buckets.indices { buckets[index] = nil }
        displaced.removeAll()
        count = 0
    }

    private func bucket(of id: Int32) -> Int {
        Int(UInt32(bitPattern: id) >> 1) & (buckets.count - 1)
    }

    private mutating func added() {
        count += 1
        if count * 2 > buckets.count { grow() }
    }

    /// Twice the buckets, every stream placed again: displaced ones may find their bucket free now.
    private mutating func grow() {
        let entries = buckets.compactMap { $0 }.map { ($0.id, $0.value) } + displaced.map { ($0.key, $0.value) }
        buckets = Array(repeating: nil, count: buckets.count * 2)
        displaced.removeAll()
        count = 0
        for (id, value) in entries { insert(value, for: id) }
    }
}
