import Testing
@testable import APNsClient

@Suite("Request slots: a connection's table of the requests it holds (no I/O)")
struct RequestSlotsTests {
    @Test("each request gets a slot, is read and taken out by it, and an emptied slot is reused")
    func reuse() {
        var slots = RequestSlots<String>()
        let first = slots.insert("a"), second = slots.insert("b")
        #expect(first != second)
        #expect(slots.withRequest(in: first) { $0 } == "a" && slots.withRequest(in: second) { $0 } == "b")
        #expect(slots.remove(first) == "a")
        #expect(slots.count == 1)
        let third = slots.insert("c")
        #expect(third == first, "the freed slot is reused, so the table grows only to the most held at once")
        #expect(slots.withRequest(in: third) { $0 } == "c" && slots.withRequest(in: second) { $0 } == "b")
        #expect(slots.remove(second) == "b" && slots.remove(third) == "c")
        #expect(slots.count == 0)
    }
}
