import AMQP
import Testing
import TestSupport
import WorkerConfiguration
@testable import Worker

/// The intake's slots and its drain: no I/O, no broker.
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

    @Test("nothing starts without a delivery or a slot; an urgent arrival overtakes waiting bulk ones")
    func slots() throws {
        let intake = Self.intake(limit: 1)
        #expect(intake.take() == nil, "nothing has arrived")
        intake.arrived([Self.delivery(1), Self.delivery(2)])
        let first = try #require(intake.take())
        #expect(first.delivery.deliveryTag == 1)
        intake.arrived([Self.delivery(3, urgent: true)])
        #expect(intake.take() == nil, "no slot is free: nothing starts")
        intake.finished(first)
        let started = intake.take()
        #expect(started?.delivery.deliveryTag == 3 && started?.lane == .urgent, "the freed slot goes to the urgent delivery")
        #expect(intake.counts.waitingBulk == 1)
        #expect(!intake.hasEnded)
    }

    @Test("draining: nothing starts once closed; what waits is handed back once the consumer is gone")
    func draining() {
        let intake = Self.intake(limit: 2)
        intake.arrived([Self.delivery(1)])
        #expect(intake.take()?.delivery.deliveryTag == 1)
        intake.arrived([Self.delivery(2), Self.delivery(3, urgent: true)])
        intake.close()
        #expect(intake.hasEnded)
        #expect(intake.take() == nil, "a slot is free, but the intake is closed")
        intake.arrived([Self.delivery(4)])
        #expect(intake.inputFinished().map(\.deliveryTag) == [3, 2, 4], "everything not started, urgent first")
        #expect(intake.take() == nil)
    }

    @Test("the consumer's end without draining: what waits still starts, then the intake has ended")
    func inputEnds() {
        let intake = Self.intake(limit: 2)
        intake.arrived([Self.delivery(1)])
        #expect(intake.inputFinished().isEmpty)
        #expect(!intake.hasEnded, "a delivery still waits")
        #expect(intake.take()?.delivery.deliveryTag == 1)
        #expect(intake.take() == nil)
        #expect(intake.hasEnded)
    }
}
