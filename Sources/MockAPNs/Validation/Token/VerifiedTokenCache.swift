/// The last few tokens verified on one connection, keyed by their whole `authorization` value.
///
/// Bounded, because a client that mints a fresh token per request must not grow the mock's memory; a few
/// entries cover a connection going back and forth between tokens. Eviction is first-in-first-out: simple,
/// and a token that falls out is merely verified again.
struct VerifiedTokenCache: Sendable {
    private struct Entry: Sendable {
        let authorization: String
        let token: VerifiedProviderToken
    }

    let capacity: Int
    private var entries: [Entry] = []
    private var oldest = 0

    init(capacity: Int) {
        precondition(capacity > 0, "the cache needs room for at least one token")
        self.capacity = capacity
    }

    func token(for authorization: String) -> VerifiedProviderToken? {
        entries.first { $0.authorization == authorization }?.token
    }

    mutating func insert(_ token: VerifiedProviderToken, for authorization: String) {
        let entry = Entry(authorization: authorization, token: token)
        if let index = entries.firstIndex(where: { $0.authorization == authorization }) {
            entries[index] = entry
        } else if entries.count < capacity {
            entries.append(entry)
        } else {
            entries[oldest] = entry
            oldest = (oldest + 1) % capacity
        }
    }

    var count: Int { entries.count }
}
