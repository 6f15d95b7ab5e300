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
        for tag: UInt64 in 1...5 { queue.arrived(Self.delivery(tag), lane: .bulk) }
        #expect(Self.startAll(&queue) == ["bulk 1", "bulk 2"])
        queue.arrived(Self.delivery(20), lane: .urgent)
        #expect(Self.startAll(&queue) == ["urgent 20"], "the reserved slot, while bulk waits")
        queue.arrived(Self.delivery(21), lane: .urgent)
        #expect(Self.startAll(&queue) == [], "every slot is taken")
        queue.finished(.bulk)
        #expect(Self.startAll(&queue) == ["urgent 21"], "a freed slot goes to the waiting urgent job first")
        queue.finished(.urgent)
        queue.finished(.urgent)
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
        queue.finished(.urgent)
        #expect(Self.startAll(&queue) == ["bulk 2"])
    }

    @Test("removeAll hands back every waiting delivery, urgent first, and leaves the lines empty")
    func removeAll() {
        var queue = LaneQueue(limit: 1, reserved: 0)
        queue.arrived(Self.delivery(1), lane: .bulk)
        queue.arrived(Self.delivery(2), lane: .urgent)
        queue.arrived(Self.delivery(3), lane: .bulk)
        _ = queue.start()
        #expect(queue.removeAll().map(\.deliveryTag) == [1, 3])
        #expect(queue.isEmpty && queue.running == 1)
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
}
