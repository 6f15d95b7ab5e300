import AMQP
import Synchronization
import Testing
import TestSupport
@testable import Worker
import WorkerConfiguration

/// Starting jobs where deliveries arrive and slots free: through fakes of the broker and APNs, no I/O.
@Suite("Job starter")
struct JobStarterTests {
    static func starter(limit: Int, broker: FakeBroker, sender: FakeSender = FakeSender()) throws -> JobStarter {
        let processor = try JobProcessorTests.processor(broker: broker, sender: sender)
        let intake = JobIntake(limit: limit, reserved: 0) { _ in JobIntake.Placement(lane: .bulk) }
        return JobStarter(intake: intake, processor: processor, metrics: WorkerMetrics())
    }

    @Test("ten thousand deliveries whose connection is gone settle at once, one slot after another, on one stack")
    func supersededInARow() throws {
        let broker = FakeBroker()
        let sender = FakeSender()
        let starter = try Self.starter(limit: 1, broker: broker, sender: sender)
        broker.reconnect()
        // Each settles inside its own start, which frees the slot for the next: nested, this chain
        // would be ten thousand starts deep.
        starter.arrived((1...10_000).map { JobProcessorTests.delivery(JobProcessorTests.job("j-\($0)"), tag: UInt64($0), generation: 1) })
        #expect(starter.inFlight.load(ordering: .relaxed) == 0)
        #expect(starter.intake.counts.waitingBulk == 0, "every one was started and dropped")
        #expect(sender.sends == 0)
        #expect(broker.acked.isEmpty && broker.published.isEmpty, "the broker requeued them; nothing is answered for them")
    }

    @Test("a single-device job is sent and settled without a task; a multicast job goes to a task; closing ends them")
    func fastAndSlow() async throws {
        let broker = FakeBroker()
        let starter = try Self.starter(limit: 4, broker: broker)
        let multicast = JobProcessorTests.multicastJob("m-1")
        starter.arrived([
            JobProcessorTests.delivery(JobProcessorTests.job("j-1"), tag: 1),
            JobProcessorTests.delivery(multicast, tag: 2),
        ])
        var slow = starter.slowJobs.makeAsyncIterator()
        let job = try #require(await slow.next())
        #expect(job.delivery.deliveryTag == 2, "only the multicast job needs a task")
        try await Condition.wait("the single job is acked") { broker.acked == [1] }
        #expect(starter.inFlight.load(ordering: .relaxed) == 1, "the multicast job still holds its slot")
        starter.intake.close()
        starter.startWaiting()
        #expect(await slow.next() == nil, "closed: no more jobs for tasks")
    }
}
