/// The client's pools by key (credential name and revision, endpoint), with the pool found last kept
/// aside.
///
/// A worker sends most requests in a row with one credential, and comparing a key with the last one
/// is cheap (equal strings that share storage compare by pointer), where a `Dictionary` lookup hashed
/// the credential's name and the endpoint's host with SipHash on every request: about 700 of the
/// client benchmark's 50,000 instructions per request (callgrind).
struct PoolTable<Key: Hashable, Pool> {
    private var pools: [Key: Pool] = [:]
    private var last: (key: Key, pool: Pool)?

    /// The pool for `key`, if there is one; it becomes the one kept aside.
    mutating func pool(for key: Key) -> Pool? {
        if let last, last.key == key { return last.pool }
        guard let pool = pools[key] else { return nil }
        last = (key, pool)
        return pool
    }

    /// The pool for `key`, without changing which one is kept aside (for reads off the send path).
    func peek(_ key: Key) -> Pool? {
        pools[key]
    }

    mutating func insert(_ pool: Pool, for key: Key) {
        pools[key] = pool
        last = (key, pool)
    }

    mutating func remove(_ key: Key) {
        pools[key] = nil
        if last?.key == key { last = nil }
    }

    /// Every pool, forgotten.
    mutating func removeAll() -> [Pool] {
        defer {
            pools.removeAll()
            last = nil
        }
        return Array(pools.values)
    }

    /// Every key and its pool.
    var all: [(key: Key, pool: Pool)] { pools.map { ($0.key, $0.value) } }
}

extension PoolTable: Sendable where Key: Sendable, Pool: Sendable {}
