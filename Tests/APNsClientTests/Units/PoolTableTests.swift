import Testing
@testable import APNsClient

@Suite("Pool table: the client's pools by key, the last one kept aside (no I/O)")
struct PoolTableTests {
    @Test("pools are found by key whichever was used last, and a removed pool is not found again, even the last one")
    func lookups() {
        var table = PoolTable<String, Int>()
        #expect(table.pool(for: "a") == nil)
        table.insert(1, for: "a")
        table.insert(2, for: "b")
        #expect(table.pool(for: "a") == 1 && table.pool(for: "a") == 1 && table.pool(for: "b") == 2 && table.pool(for: "a") == 1)
        table.remove("a")
        #expect(table.pool(for: "a") == nil && table.peek("a") == nil, "the pool kept aside went with its key")
        #expect(table.pool(for: "b") == 2)
        table.insert(3, for: "b")
        #expect(table.pool(for: "b") == 3, "a replaced pool is the one found")
        #expect(table.removeAll() == [3] && table.pool(for: "b") == nil && table.all.isEmpty)
    }
}
