import AMQP
import Testing
import TestSupport
import WorkerConfiguration
@testable import Worker

/// Which delivery starts next: no I/O, no broker.
@Suite("Lane queue")
struct LaneQueueTests {
    static func delivery(_ tag: UInt64) -> AMQPDelivery {
        AMQPDelivery(message: AMQPMessage(body: Array("\(tag)".utf8)), deliveryTag: tag, redelivered: false, exchange: "apns.jobs", routingKey: "send", generation: 1)
    }

    /// Starts whatever may start, as tags with their lanes.
    static func startAll(_ queue: inout LaneQueue) -> [String] {
        var started: [String] = []
        while let next = queue.start() { started.append("\(next.lane) \(next.delivery.deliveryTag)") }
        return started
    }

    /// Starts whatever may start, as credentials, keeping what started (to finish it later).
    static func startAll(_ queue: inout LaneQueue, into running: inout [LaneQueue.Started]) -> [String] {
        var started: [String] = []
        while let next = queue.start() {
            started.append(next.credential)
            running.append(next)
        }
        return started
    }

    /// Ends the first running job of `credential` in `lane`.
    static func finish(_ credential: String, lane: Lane = .bulk, in queue: inout LaneQueue, _ running: inout [LaneQueue.Started]) {
        let index = running.firstIndex { $0.credential == credential && $0.lane == lane }!
        queue.finished(running.remove(at: index))
    }

    @Test("urgent deliveries start first, in arrival order, whenever a slot is free")
    func urgentFirst() {
        var queue = LaneQueue(limit: 4, reserved: 1)
        for tag: UInt64 in 1...3 { queue.arrived(Self.delivery(tag), lane: .bulk) }
        queue.arrived(Self.delivery(10), lane: .urgent)
        queue.arrived(Self.delivery(11), lane: .urgent)
        #expect(Self.startAll(&queue) == ["urgent 10", "urgent 11", "bulk 1"], "two urgent, then bulk up to the reserve")
        #expect(queue.running == 3 && queue.waitingBulk == 2)
    }

    @Test("bulk never takes the reserved slots; an urgent arrival takes one at once")
    func reserve() {
        var queue = LaneQueue(limit: 3, reserved: 1)
        var running: [LaneQueue.Started] = []
        for tag: UInt64 in 1...5 { queue.arrived(Self.delivery(tag), lane: .bulk) }
        #expect(Self.startAll(&queue, into: &running).count == 2)
        queue.arrived(Self.delivery(20), lane: .urgent)
        #expect(Self.startAll(&queue, into: &running).count == 1, "the reserved slot, while bulk waits")
        #expect(running.last?.lane == .urgent)
        queue.arrived(Self.delivery(21), lane: .urgent)
        #expect(Self.startAll(&queue) == [], "every slot is taken")
        Self.finish("", lane: .bulk, in: &queue, &running)
        #expect(Self.startAll(&queue) == ["urgent 21"], "a freed slot goes to the waiting urgent job first")
        Self.finish("", lane: .urgent, in: &queue, &running)
        queue.finished(LaneQueue.Started(delivery: Self.delivery(21), lane: .urgent, credential: ""))
        #expect(Self.startAll(&queue) == ["bulk 3"], "then bulk, up to the reserve again")
        #expect(queue.runningBulk == 2 && queue.runningUrgent == 0 && queue.waitingBulk == 2)
    }

    @Test("without a reserve bulk may take every slot; urgent still starts first")
    func noReserve() {
        var queue = LaneQueue(limit: 2, reserved: 0)
        queue.arrived(Self.delivery(1), lane: .bulk)
        queue.arrived(Self.delivery(2), lane: .bulk)
        queue.arrived(Self.delivery(3), lane: .bulk)
        queue.arrived(Self.delivery(9), lane: .urgent)
        #expect(Self.startAll(&queue) == ["urgent 9", "bulk 1"])
        queue.finished(LaneQueue.Started(delivery: Self.delivery(9), lane: .urgent, credential: ""))
        #expect(Self.startAll(&queue) == ["bulk 2"])
    }

    @Test("removeAll hands back every waiting delivery, urgent first, each lane in arrival order across credentials")
    func removeAll() {
        var queue = LaneQueue(limit: 1, reserved: 0)
        queue.arrived(Self.delivery(1), lane: .bulk, credential: "b")
        queue.arrived(Self.delivery(2), lane: .urgent, credential: "a")
        queue.arrived(Self.delivery(3), lane: .bulk, credential: "a")
        queue.arrived(Self.delivery(4), lane: .urgent, credential: "b")
        queue.arrived(Self.delivery(5), lane: .bulk, credential: "b")
        #expect(queue.start()?.delivery.deliveryTag == 2)
        #expect(queue.removeAll().map(\.deliveryTag) == [4, 1, 3, 5])
        #expect(queue.isEmpty && queue.running == 1)
        #expect(queue.credentials.map(\.credential) == ["a"], "only the credential still running is kept")
    }

    @Test("fair shares: while two credentials wait, each freed slot goes to the one holding fewer; alone, one takes every slot")
    func equalShares() {
        var queue = LaneQueue(limit: 4, reserved: 0)
        var running: [LaneQueue.Started] = []
        for tag: UInt64 in 1...10 { queue.arrived(Self.delivery(tag), lane: .bulk, credential: "slow") }
        #expect(Self.startAll(&queue, into: &running) == ["slow", "slow", "slow", "slow"], "alone, it may use every slot")
        for tag: UInt64 in 11...20 { queue.arrived(Self.delivery(tag), lane: .bulk, credential: "fast") }
        #expect(Self.startAll(&queue, into: &running) == [], "no slot is free; none is taken from a running job")
        Self.finish("slow", in: &queue, &running)
        #expect(Self.startAll(&queue, into: &running) == ["fast"], "the freed slot goes to the credential holding none")
        Self.finish("slow", in: &queue, &running)
        #expect(Self.startAll(&queue, into: &running) == ["fast"])
        Self.finish("fast", in: &queue, &running)
        #expect(Self.startAll(&queue, into: &running) == ["fast"], "fast holds 1 against slow's 2")
        Self.finish("slow", in: &queue, &running)
        #expect(Self.startAll(&queue, into: &running) == ["slow"], "1 slow against 2 fast: slow's turn")
        #expect(queue.credentials.map(\.running) == [2, 2], "equal shares of 4 slots")
    }

    @Test("weights: a credential of weight 3 gets three slots for every one of weight 1 while both wait")
    func weightedShares() {
        var queue = LaneQueue(limit: 8, reserved: 0)
        var running: [LaneQueue.Started] = []
        for tag: UInt64 in 1...20 {
            queue.arrived(Self.delivery(tag), lane: .bulk, credential: "heavy", weight: 3)
            queue.arrived(Self.delivery(100 + tag), lane: .bulk, credential: "light", weight: 1)
        }
        let started = Self.startAll(&queue, into: &running)
        #expect(started.count { $0 == "heavy" } == 6 && started.count { $0 == "light" } == 2, "\(started)")
    }

    @Test("urgent jobs still come first, whatever their credential holds")
    func urgentAcrossCredentials() {
        var queue = LaneQueue(limit: 3, reserved: 0)
        var running: [LaneQueue.Started] = []
        for tag: UInt64 in 1...3 { queue.arrived(Self.delivery(tag), lane: .bulk, credential: "a") }
        _ = Self.startAll(&queue, into: &running)
        queue.arrived(Self.delivery(10), lane: .bulk, credential: "b")
        queue.arrived(Self.delivery(11), lane: .urgent, credential: "a")
        Self.finish("a", in: &queue, &running)
        #expect(Self.startAll(&queue, into: &running) == ["a"], "a's urgent job before b's bulk one, though a holds more")
        #expect(running.last?.lane == .urgent)
    }

    @Test("a long line keeps its order across compactions")
    func longLine() {
        var line = FIFO<Int>()
        var taken: [Int] = []
        for value in 0..<500 {
            line.append(value)
            if value % 3 == 0, let first = line.popFirst() { taken.append(first) }
        }
        while let first = line.popFirst() { taken.append(first) }
        #expect(taken == Array(0..<500))
    }

    @Test("what leaves a line is released at once, not held until the line compacts")
    func releasesWhatLeft() {
        final class Delivery {}
        var line = FIFO<Delivery>()
        weak var popped: Delivery?
        weak var next: Delivery?
        do {
            let first = Delivery()
            let second = Delivery()
            popped = first
            next = second
            line.append(first)
            line.append(second)
            for _ in 0..<100 { line.append(Delivery()) }
        }
        _ = line.popFirst()
        #expect(popped == nil, "a started delivery's body must not outlive its job in the line")
        #expect(next != nil, "what still waits stays in the line")
        _ = line.popFirst()
        #expect(next == nil)
        #expect(line.count == 100)
        while line.popFirst() != nil {}
        #expect(line.isEmpty && line.first == nil)
    }
}
