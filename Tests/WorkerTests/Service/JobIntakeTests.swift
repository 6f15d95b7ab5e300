import AMQP
import Testing
import TestSupport
import WorkerConfiguration
@testable import Worker

/// The intake's waits and its drain: no I/O, no broker.
@Suite("Job intake")
struct JobIntakeTests {
    static let urgentQueue = "apns.jobs.urgent"

    static func intake(limit: Int, reserved: Int = 0) -> JobIntake {
        JobIntake(limit: limit, reserved: reserved) { JobIntake.Placement(lane: $0.queue == urgentQueue ? .urgent : .bulk) }
    }

    static func delivery(_ tag: UInt64, urgent: Bool = false) -> AMQPDelivery {
        AMQPDelivery(
            message: AMQPMessage(body: Array("\(tag)".utf8)), deliveryTag: tag, redelivered: false, exchange: "apns.jobs", routingKey: "send",
            queue: urgent ? urgentQueue : "apns.jobs", generation: 1
        )
    }

    @Test("the intake waits for a delivery, then for a slot; an urgent arrival overtakes waiting bulk ones")
    func waits() async throws {
        let intake = Self.intake(limit: 1)
        let first = Task { await intake.next() }
        try await Condition.wait("the intake waits for a delivery") { intake.isWaiting }
        intake.arrived([Self.delivery(1), Self.delivery(2)])
        let firstStarted = await first.value
        #expect(firstStarted?.delivery.deliveryTag == 1)
        let second = Task { await intake.next() }
        try await Condition.wait("the intake waits for the slot") { intake.isWaiting }
        intake.arrived([Self.delivery(3, urgent: true)])
        #expect(intake.isWaiting, "no slot is free: nothing starts")
        intake.finished(try #require(firstStarted))
        let started = await second.value
        #expect(started?.delivery.deliveryTag == 3 && started?.lane == .urgent, "the freed slot goes to the urgent delivery")
        #expect(intake.counts.waitingBulk == 1)
    }

    @Test("draining: the waiting intake hears the end at once; what waits is handed back once the stream ends")
    func draining() async throws {
        let intake = Self.intake(limit: 1)
        intake.arrived([Self.delivery(1)])
        #expect(await intake.next()?.delivery.deliveryTag == 1)
        intake.arrived([Self.delivery(2), Self.delivery(3, urgent: true)])
        let waiting = Task { await intake.next() }
        try await Condition.wait("the intake waits for the slot") { intake.isWaiting }
        intake.close()
        #expect(await waiting.value == nil)
        intake.arrived([Self.delivery(4)])
        #expect(intake.inputFinished().map(\.deliveryTag) == [3, 2, 4], "everything not started, urgent first")
        #expect(await intake.next() == nil)
    }

    @Test("the stream's end without draining: what waits still starts, then the intake hears the end")
    func streamEnds() async {
        let intake = Self.intake(limit: 2)
        intake.arrived([Self.delivery(1)])
        #expect(intake.inputFinished().isEmpty)
        #expect(await intake.next()?.delivery.deliveryTag == 1)
        #expect(await intake.next() == nil)
    }

    @Test("a cancelled wait ends the intake, as draining does")
    func cancellation() async throws {
        let intake = Self.intake(limit: 1)
        let waiting = Task { await intake.next() }
        try await Condition.wait("the intake waits") { intake.isWaiting }
        waiting.cancel()
        #expect(await waiting.value == nil)
        intake.arrived([Self.delivery(1)])
        #expect(await intake.next() == nil, "closed: nothing starts")
    }
}
