import Testing
@testable import APNsClient

@Suite("Connection entries: a pool's connections by id (no I/O)")
struct ConnectionEntriesTests {
    @Test("entries are read, changed and forgotten by id, and kept in ascending id order")
    func byID() {
        var entries = ConnectionEntries<String>()
        #expect(entries[1] == nil && entries.count == 0)
        entries[3] = "c"
        entries[1] = "a"
        entries[7] = "g"
        #expect(entries.ids == [1, 3, 7], "an id lower than the others goes before them")
        entries[3] = "C"
        #expect(entries[3] == "C" && entries.count == 3, "a known id is changed, not added")
        entries[1] = nil
        entries[5] = nil
        #expect(entries.ids == [3, 7] && entries[1] == nil, "forgetting an unknown id changes nothing")
        #expect(entries.map(\.entry) == ["C", "g"])
    }
}
