import AMQP
import Testing
@testable import Worker
import WorkerConfiguration

@Suite("Urgent latencies for bulk pacing")
struct UrgentLatenciesTests {
    @Test("a take returns nothing until enough were recorded, then all of them once")
    func takes() {
        let latencies = UrgentLatencies()
        for milliseconds in 1...3 { latencies.record(.milliseconds(milliseconds)) }
        #expect(latencies.take(atLeast: 4).isEmpty)
        latencies.record(.milliseconds(4))
        #expect(latencies.take(atLeast: 4) == [.milliseconds(1), .milliseconds(2), .milliseconds(3), .milliseconds(4)])
        #expect(latencies.take(atLeast: 1).isEmpty)
    }

    @Test("keeps at most its capacity between takes, and a discard forgets them")
    func bounded() {
        let latencies = UrgentLatencies()
        for _ in 0..<(UrgentLatencies.capacity + 100) { latencies.record(.milliseconds(1)) }
        #expect(latencies.take(atLeast: 1).count == UrgentLatencies.capacity)
        latencies.record(.milliseconds(1))
        latencies.discard()
        #expect(latencies.take(atLeast: 1).isEmpty)
    }

    @Test("the processor records an urgent single-device job's latency once it is acked, and not a bulk or a multicast one's")
    func recordedByTheProcessor() async throws {
        let broker = FakeBroker()
        let processor = try JobProcessorTests.processor(broker: broker, sender: FakeSender())
        let urgentQueue = try #require(try JobProcessorTests.settings().topology.urgentQueue)
        func delivery(_ body: String, tag: UInt64, queue: String) -> AMQPDelivery {
            AMQPDelivery(message: AMQPMessage(body: Array(body.utf8)), deliveryTag: tag, redelivered: false, exchange: "apns.jobs", routingKey: "send", queue: queue, generation: 1)
        }
        await processor.process(delivery(JobProcessorTests.job("bulk"), tag: 1, queue: "apns.jobs"))
        await processor.process(delivery(JobProcessorTests.multicastJob("urgent-multicast"), tag: 2, queue: urgentQueue))
        #expect(processor.urgentLatencies.take(atLeast: 1).isEmpty)
        await processor.process(delivery(JobProcessorTests.job("urgent"), tag: 3, queue: urgentQueue))
        #expect(broker.acked == [1, 2, 3])
        let recorded = processor.urgentLatencies.take(atLeast: 1)
        #expect(recorded.count == 1)
        #expect(recorded.allSatisfy { $0 >= .zero })
    }
}
