import AMQP
import Foundation
import Testing
import TestSupport
@testable import Worker
import WorkerConfiguration

/// `topology.partitions`: jobs spread over several quorum queues by an `x-random` exchange, every
/// worker consuming all of them.
@Suite("Partitioned jobs queues", .serialized, .io)
struct PartitionTests {
    @Test("three partitions: an x-random exchange behind the jobs exchange, the first queue keeps its name and arguments")
    func declarations() {
        var settings = TopologySection()
        settings.partitions = 3
        let topology = Topology(settings: settings)
        #expect(settings.jobsQueueNames == ["apns.jobs", "apns.jobs.1", "apns.jobs.2"])
        #expect(topology.exchanges.map(\.name) == ["apns.jobs", "apns.jobs.spread", "apns.retry", "apns.dead", "apns.results"])
        #expect(topology.exchanges.first { $0.name == "apns.jobs.spread" }?.type == .random)
        let single = Topology(settings: TopologySection()).queues.first { $0.name == "apns.jobs" }
        #expect(topology.queues.first { $0.name == "apns.jobs" } == single, "a redeclaration with other arguments would be refused")
        for name in ["apns.jobs.1", "apns.jobs.2"] {
            let queue = topology.queues.first { $0.name == name }
            #expect(queue?.arguments["x-queue-type"] == .string("quorum"))
            #expect(queue?.arguments["x-delivery-limit"] == .int(20))
            #expect(queue?.arguments["x-queue-leader-locator"] == .string("balanced"))
        }
        #expect(topology.bindings.contains(AMQPBindingDeclaration(destination: .exchange("apns.jobs.spread"), exchange: "apns.jobs", routingKey: "send")))
        #expect(topology.bindings.filter { $0.exchange == "apns.jobs.spread" }.map(\.destinationName) == settings.jobsQueueNames)
        #expect(!topology.bindings.contains(AMQPBindingDeclaration(queue: "apns.jobs", exchange: "apns.jobs", routingKey: "send")))
        #expect(topology.obsoleteBindings == [AMQPBindingDeclaration(queue: "apns.jobs", exchange: "apns.jobs", routingKey: "send")])
        #expect(Topology(settings: TopologySection()).obsoleteBindings.isEmpty)
    }

    @Test("going from one queue to three keeps the backlog, spreads new jobs over all three, and delivers none twice")
    func migrationSpreadsWithoutDuplicates() async throws {
        let single = try await WorkerHarness.make()
        try await single.publish((0..<60).map { JobFactory.alert(id: "before-\($0)") })
        var settings = single.settings
        settings.topology.partitions = 3
        let partitioned = WorkerHarness(mock: single.mock, settings: settings, prefix: single.prefix)
        try await partitioned.publish((0..<300).map { JobFactory.alert(id: "after-\($0)") })
        var counts: [String: Int] = [:]
        var ids: [String] = []
        // A drain ends after a second without a message, which a loaded machine can take before the
        // first one: queues are read again until every job is back (what was read is acked, so a
        // second pass reads only the rest), within a deadline.
        let deadline = ContinuousClock.now + .seconds(60)
        while ids.count < 360, ContinuousClock.now < deadline {
            for queue in partitioned.settings.topology.jobsQueueNames {
                let messages = try await partitioned.drain(queue, idle: .seconds(1)) { _ in false }
                counts[queue, default: 0] += messages.count
                ids += messages.compactMap { (try? JSONSerialization.jsonObject(with: Data($0.body)) as? [String: Any])?["id"] as? String }
            }
        }
        #expect(ids.count == 360 && Set(ids).count == 360, "every job once: \(counts)")
        #expect(counts.values.allSatisfy { $0 > 40 }, "random spread of 300 over three queues: \(counts)")
        #expect(ids.filter { $0.hasPrefix("before-") }.count == 60)
        await partitioned.tearDown()
    }

    @Test("a worker consumes every partition: each job gets its result")
    func workerConsumesAll() async throws {
        let harness = try await WorkerHarness.make(mockSetup: { _ in }) { $0.topology.partitions = 3 }
        let ids = (0..<300).map { "part-\($0)" }
        try await harness.publish(ids.map { JobFactory.alert(id: $0) })
        let worker = try await harness.startWorker()
        let results = try await harness.results(covering: Set(ids), idle: .seconds(15))
        try await worker.stop()
        #expect(Set(results.compactMap(\.id)) == Set(ids))
        #expect(results.allSatisfy { $0.status == .delivered })
        await harness.tearDown()
    }
}
