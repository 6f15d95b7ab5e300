import AMQP
import Foundation
import MockAPNs
import Testing
import TestSupport
import Worker
import WorkerConfiguration

/// Moving a running fleet from a RabbitMQ 3.x broker to a 4.x one, blue-green, as docs/operations.md
/// describes it (a 4.0 broker cannot be upgraded into from 3.10 in place): the producers switch to the
/// new broker, new workers consume there, the old workers drain the old broker (its jobs and the retries
/// still waiting in its tiers) and stop. Nothing may be lost. Runs in `make faults` (scripts/migration.sh
/// starts a 3.10 and a 4.0 node and sets APNS_MIGRATION_BLUE / _GREEN).
@Suite("Moving a fleet from RabbitMQ 3.10 to 4.0 with jobs in flight", .serialized, .io)
struct BrokerMigrationTests {
    static let environment = ProcessInfo.processInfo.environment
    static var enabled: Bool { environment["APNS_MIGRATION_BLUE"] != nil && environment["APNS_MIGRATION_GREEN"] != nil }

    /// A harness on `url`: a worker process, its mock, its topology, and collectors of its results.
    static func side(_ url: String, name: String) async throws -> (harness: WorkerHarness, results: QueueCollector) {
        let harness = try await WorkerHarness.make(mockSetup: {
            // Slow enough that the move happens under load; a few 503s so retries wait in the tiers.
            $0.faults.latency = .fixed(milliseconds: 20)
            $0.faults.errorRate = 0.05
            $0.faults.errorStatus = 503
        }) { settings in
            settings.amqp.urls = [url]
            settings.worker.name = name
            settings.worker.maxAttempts = 10
            settings.topology.retryTiers = [.seconds(1), .seconds(2)]
        }
        try await FaultRun.declareTopology(of: harness)
        let results = try await QueueCollector.start(harness, queue: harness.settings.topology.resultsQueue!, name: "\(harness.prefix)results")
        return (harness, results)
    }

    /// Publishes `bodies` to the jobs exchange of `harness`'s broker, each confirmed.
    static func publish(_ bodies: [[UInt8]], to harness: WorkerHarness) async throws {
        try await harness.publish(bodies)
    }

    @Test("3.10 → 4.0: producers switch, the old workers drain the old broker's jobs and retry tiers, nothing is lost", .enabled(if: enabled), .timeLimit(.minutes(5)))
    func blueGreen() async throws {
        let blue = try await Self.side(try #require(Self.environment["APNS_MIGRATION_BLUE"]), name: "blue-worker")
        let green = try await Self.side(try #require(Self.environment["APNS_MIGRATION_GREEN"]), name: "green-worker")
        let oldJobs = (0..<6000).map { JobFactory.alert(id: "old-\($0)") }
        let newJobs = (0..<4000).map { JobFactory.alert(id: "new-\($0)") }

        // Before: the fleet on 3.10, with a backlog.
        try await Self.publish(oldJobs, to: blue.harness)
        let oldWorker = try blue.harness.launchWorker()
        defer { if oldWorker.isRunning { oldWorker.terminate(); oldWorker.waitUntilExit() } }
        try await waitUntil(blue.harness) { blue.harness.mock.server.recorder.snapshot.accepted >= 1000 }

        // The move: producers publish to 4.0, where new workers consume; the old workers keep draining.
        let newWorker = try green.harness.launchWorker()
        defer { if newWorker.isRunning { newWorker.terminate(); newWorker.waitUntilExit() } }
        try await Self.publish(newJobs, to: green.harness)

        // The old broker is drained when its jobs queue and every retry tier are empty, and every old
        // job has its result: only then do its workers stop.
        let client = try await FaultRun.client(of: blue.harness, name: "drain-check")
        let waitingQueues = [blue.harness.settings.topology.jobsQueue] + Topology(settings: blue.harness.settings.topology).retryQueues.map(\.name)
        var waiting = Int.max
        try await Condition.wait(
            "the old broker drained", timeout: .seconds(240), interval: .milliseconds(200),
            context: { "\(waiting) jobs still queued, \(Set(Self.ids(blue.results)).count) of \(oldJobs.count) answered" }
        ) {
            waiting = 0
            for queue in waitingQueues { waiting += try await client.readyMessageCount(inQueue: queue) }
            return waiting == 0 && Set(Self.ids(blue.results)).count >= oldJobs.count
        }
        await client.close()
        oldWorker.terminate()
        await oldWorker.exited()
        try await waitUntil(green.harness) { Set(Self.ids(green.results)).count >= newJobs.count }
        newWorker.terminate()
        await newWorker.exited()
        await blue.results.settle(idle: .seconds(1))
        await green.results.settle(idle: .seconds(1))

        let old = Set(Self.ids(blue.results))
        let new = Set(Self.ids(green.results))
        #expect(oldWorker.terminationStatus == 0 && newWorker.terminationStatus == 0, "both drain and exit 0 on SIGTERM")
        #expect(old == Set(oldJobs.indices.map { "old-\($0)" }), "lost on 3.10: \(oldJobs.count - old.count)")
        #expect(new == Set(newJobs.indices.map { "new-\($0)" }), "lost on 4.0: \(newJobs.count - new.count)")
        let retried = (blue.results.messages + green.results.messages).compactMap { try? JobResult.decode($0.body) }.filter { $0.attempts > 1 }.count
        #expect(retried > 0, "some jobs went through retry tiers during the move")
        print("migration 3.10 → 4.0: \(old.count) + \(new.count) jobs answered, \(retried) after retries, lost 0; duplicates \(blue.results.count - old.count) + \(green.results.count - new.count)")
        await blue.results.stop()
        await green.results.stop()
        await blue.harness.tearDown()
        await green.harness.tearDown()
    }

    static func ids(_ collector: QueueCollector) -> [String] {
        collector.messages.compactMap { try? JobResult.decode($0.body).id }
    }
}
