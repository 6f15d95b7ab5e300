import Testing
@testable import Worker

extension BulkPacer {
    /// A window whose ten wake-ups were `late` many 3 ms late, the rest on time.
    fileprivate mutating func window(late: Int = 0, saturated: Bool = true) -> Int {
        windowEnded(lateness: Array(repeating: .milliseconds(3), count: late) + Array(repeating: .microseconds(200), count: 10 - late), saturated: saturated)
    }
}

@Suite("Bulk pacing of multicast senders")
struct BulkPacerTests {
    @Test("starts at its floor and grows by a quarter each window that is on time and wants more, up to the ceiling in under two seconds")
    func grows() {
        var pacer = BulkPacer(ceiling: 2_000)
        #expect(pacer.floor == 50)
        #expect(pacer.limit == 50)
        var limits: [Int] = []
        for _ in 0..<18 { limits.append(pacer.window()) }
        #expect(limits.prefix(4) == [62, 77, 96, 120])
        #expect(limits.last == 2_000, "reached the ceiling within 18 windows (1.8 s): \(limits)")
        #expect(zip(limits, limits.dropFirst()).allSatisfy { $0 <= $1 })
    }

    @Test("holds when on time but not using its limit: a lull does not grow it")
    func holdsWhenUnused() {
        var pacer = BulkPacer(ceiling: 2_000)
        for _ in 0..<10 { #expect(pacer.window(saturated: false) == 50) }
    }

    @Test("halves when a wake-up of a window comes late, never below its floor, whether or not it was saturated")
    func shrinks() {
        var pacer = BulkPacer(ceiling: 2_000)
        for _ in 0..<20 { _ = pacer.window() }
        #expect(pacer.limit == 2_000)
        #expect(pacer.window(late: 1) == 1_000)
        #expect(pacer.window(late: 10, saturated: false) == 500)
        #expect(pacer.windowEnded(lateness: Array(repeating: BulkPacer.tolerance, count: 10), saturated: true) == 625, "at the tolerance is on time")
        for _ in 0..<10 { _ = pacer.window(late: 5) }
        #expect(pacer.limit == 50)
    }

    @Test("a small ceiling has a floor of 16: at 16 permits or fewer nothing is paced")
    func small() {
        var few = BulkPacer(ceiling: 8)
        #expect(few.limit == 8)
        #expect(few.window(late: 10) == 8)
        var some = BulkPacer(ceiling: 100)
        #expect(some.floor == 16)
        #expect(some.window() == 20)
        #expect(some.window(late: 10) == 16)
    }
}
