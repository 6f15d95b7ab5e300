/// A pool's connections and what it knows of each, by connection id, in the order they were opened:
/// a short array searched from the front.
///
/// A pool holds a handful of connections, and reads this twice per request (reserving the stream with
/// the most room, and releasing it). As a `Dictionary`, each read hashed the id with SipHash and the
/// search for the best connection walked the dictionary's buckets: with `changeInFlight`'s write-back,
/// about 1,600 of the client benchmark's 50,000 instructions per request (callgrind).
struct ConnectionEntries<Entry>: Sequence {
    typealias Element = (id: Int, entry: Entry)

    /// Ascending by id: ids are handed out in increasing order, so a new connection goes last.
    private var items: [Element] = []

    /// What is known of connection `id`; setting nil forgets the connection.
    subscript(id: Int) -> Entry? {
        get {
            for item in items where item.id == id { return item.entry }
            return nil
        }
        set {
            guard let index = items.firstIndex(where: { $0.id == id }) else {
                guard let newValue else { return }
                items.insert((id, newValue), at: items.firstIndex { $0.id > id } ?? items.endIndex)
                return
            }
            if let newValue { items[index].entry = newValue } else { items.remove(at: index) }
        }
    }

    var count: Int { items.count }

    /// The connections' ids, ascending.
    var ids: [Int] { items.map(\.id) }

    func makeIterator() -> IndexingIterator<[Element]> {
        items.makeIterator()
    }
}

extension ConnectionEntries: Sendable where Entry: Sendable {}
