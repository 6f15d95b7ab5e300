import Testing
@testable import Worker

extension BulkPacer {
    /// A window whose ten wake-ups were `late` many 3 ms late, the rest on time.
    fileprivate mutating func window(late: Int = 0, saturated: Bool = true, urgent: [Duration] = []) -> Int {
        windowEnded(lateness: Array(repeating: .milliseconds(3), count: late) + Array(repeating: .microseconds(200), count: 10 - late), saturated: saturated, urgent: urgent)
    }

    /// Grown to its ceiling by on-time windows.
    fileprivate static func atCeiling() -> BulkPacer {
        var pacer = BulkPacer(ceiling: 2_000)
        while pacer.limit < 2_000 { _ = pacer.window() }
        return pacer
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

    /// A window's urgent latencies: a hundred, the slowest tenth at `p90` and the rest at 1 ms.
    static func urgent(p90: Duration) -> [Duration] {
        Array(repeating: .milliseconds(1), count: 89) + Array(repeating: p90, count: 11)
    }

    @Test("urgent jobs within a quarter of their baseline and 250 µs do not hold bulk back")
    func urgentOnTime() {
        var pacer = BulkPacer.atCeiling()
        #expect(pacer.window(urgent: Self.urgent(p90: .milliseconds(1))) == 2_000)
        #expect(pacer.urgentBaseline == .milliseconds(1))
        #expect(pacer.window(urgent: Self.urgent(p90: .microseconds(1_500))) == 2_000, "1.5 ms is the most allowed over a 1 ms baseline")
    }

    @Test("urgent jobs slower than allowed cut the limit by how far over they are, at least by half, down to 4 permits and never below")
    func urgentSlow() {
        var pacer = BulkPacer.atCeiling()
        _ = pacer.window(urgent: Self.urgent(p90: .milliseconds(1)))
        #expect(pacer.window(urgent: Self.urgent(p90: .milliseconds(10))) == 300, "2,000 × 1.5 ms ÷ 10 ms")
        #expect(pacer.window(urgent: Self.urgent(p90: .microseconds(1_600))) == 150, "barely over: still halved")
        for _ in 0..<10 { _ = pacer.window(urgent: Self.urgent(p90: .milliseconds(5))) }
        #expect(pacer.urgentFloor == 4)
        #expect(pacer.limit == 4)
        #expect(pacer.window(late: 10) == 4, "lateness's floor of 50 does not raise it")
        #expect(pacer.window() == 5, "on time and wanting more, it grows again")
    }

    @Test("fewer than eight urgent latencies are not judged")
    func urgentFew() {
        var pacer = BulkPacer.atCeiling()
        _ = pacer.window(urgent: Self.urgent(p90: .milliseconds(1)))
        #expect(pacer.window(urgent: Array(repeating: Duration.milliseconds(50), count: BulkPacer.urgentSamples - 1)) == 2_000)
        #expect(pacer.urgentBaseline == .milliseconds(1))
    }

    @Test("a path that stays slower becomes the baseline once the faster windows are a hundred windows old")
    func urgentBaselineFollows() {
        var pacer = BulkPacer.atCeiling()
        _ = pacer.window(urgent: Self.urgent(p90: .milliseconds(1)))
        for _ in 1..<BulkPacer.urgentHistoryLength { _ = pacer.window(urgent: Self.urgent(p90: .milliseconds(3))) }
        #expect(pacer.urgentBaseline == .milliseconds(1))
        #expect(pacer.limit == 4)
        #expect(pacer.window(urgent: Self.urgent(p90: .milliseconds(3))) == 5, "on time against the new baseline: grows")
        #expect(pacer.urgentBaseline == .milliseconds(3))
    }
}
