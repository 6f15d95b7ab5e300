import Testing
@testable import MockAPNs

@Suite("Verified token cache")
struct VerifiedTokenCacheTests {
    static func token(_ seconds: Int64) -> VerifiedProviderToken {
        VerifiedProviderToken(keyID: "TESTKEY001", teamID: "TEAMID0001", issuedAtSeconds: seconds)
    }

    @Test("holds at most its capacity, evicting the oldest entry first")
    func eviction() {
        var cache = VerifiedTokenCache(capacity: 2)
        cache.insert(Self.token(1), for: "a")
        cache.insert(Self.token(2), for: "b")
        cache.insert(Self.token(3), for: "c")
        #expect(cache.count == 2)
        #expect(cache.token(for: "a") == nil)
        #expect(cache.token(for: "b") == Self.token(2))
        #expect(cache.token(for: "c") == Self.token(3))
        cache.insert(Self.token(4), for: "d")
        #expect(cache.token(for: "b") == nil)
        #expect(cache.token(for: "c") == Self.token(3))
    }

    @Test("inserting a known value replaces its entry instead of taking another slot")
    func reinsert() {
        var cache = VerifiedTokenCache(capacity: 2)
        cache.insert(Self.token(1), for: "a")
        cache.insert(Self.token(5), for: "a")
        #expect(cache.count == 1)
        #expect(cache.token(for: "a") == Self.token(5))
    }
}
