import AMQP
import APNsClient
import APNsCore
import MockAPNs
import NIOCore
import NIOPosix
import Testing
import TestSupport
@testable import Worker
import WorkerConfiguration

@Suite("Shards (real RabbitMQ, mock APNs)", .serialized, .io)
struct ShardFlowTests {
    @Test("two shards: each consumes on its own broker connection and sends on its own APNs connection; every job has one result")
    func twoShardsShareTheWork() async throws {
        let harness = try await WorkerHarness.make(setup: { $0.worker.shards = 2 })
        let worker = try await harness.startWorker()
        let shards = worker.service.shards
        #expect(shards.count == 2)
        #expect(shards.map(\.settings.worker.prefetch) == [100, 100], "the harness's prefetch of 200, halved")
        let loops = Array(MultiThreadedEventLoopGroup.singleton.makeIterator()).count
        #expect(Set(shards.map { ObjectIdentifier($0.amqp.eventLoop) }).count == min(2, loops), "a loop of its own while there are enough")

        // Both shards consume before the jobs arrive: a shard still connecting would leave the whole
        // queue to the other, and the test would say nothing about sharing.
        try await waitUntil { worker.service.readiness().ready }
        let ids = (0..<600).map { "shard-\($0)" }
        try await harness.publish(ids.map { JobFactory.alert(id: $0) })
        let results = try await harness.results(covering: Set(ids))
        let audit = ResultAudit(sent: Set(ids), results: results)
        #expect(audit.lost.isEmpty, "lost: \(audit.lost.prefix(5))")
        #expect(audit.duplicates == 0)
        #expect(results.allSatisfy { $0.status == .delivered })
        // A pool opens with its first request: each shard sent some of the jobs, on its own connection.
        #expect(shards.allSatisfy { shard in shard.apns.openPools.contains { $0.credential == "team-one" } }, "a shard sent nothing")
        #expect(harness.mock.server.recorder.snapshot.connectionsOpened >= 2)
        #expect(worker.service.readiness().ready)
        try await worker.stop()
        await harness.tearDown()
    }
}
