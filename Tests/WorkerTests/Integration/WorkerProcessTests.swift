import AMQP
import Foundation
import MockAPNs
import Testing
import TestSupport
@testable import Worker
import WorkerConfiguration

/// Checks a run's results: none lost, none unexpected, no job with two different outcomes.
struct ResultAudit {
    let lost: Set<String>
    let unexpected: Set<String>
    let conflicting: Set<String>
    let duplicates: Int

    init(sent: Set<String>, results: [JobResult]) {
        let byID = Dictionary(grouping: results, by: { $0.id ?? "?" })
        lost = sent.subtracting(byID.keys)
        unexpected = Set(byID.keys).subtracting(sent)
        conflicting = Set(byID.filter { Set($0.value.map(\.status)).count > 1 }.keys)
        duplicates = results.count - byID.count
    }
}

@Suite("Worker processes under crashes and signals (real RabbitMQ, mock APNs)", .serialized, .io)
struct WorkerProcessTests {
    @Test("kill -9 mid-run, then a restart: nothing lost, duplicates bounded by the prefetch")
    func killNine() async throws {
        let harness = try await WorkerHarness.make(mockSetup: { $0.faults.latency = .fixed(milliseconds: 5) })
        let ids = (0..<3000).map { "kill-\($0)" }
        try await harness.publish(ids.map { JobFactory.alert(id: $0) })
        let first = try harness.launchWorker()
        defer { if first.isRunning { first.terminate(); first.waitUntilExit() } }
        try await waitUntil(harness) { harness.mock.server.recorder.snapshot.accepted >= 600 }
        kill(first.processIdentifier, SIGKILL)
        await first.exited()
        let second = try harness.launchWorker()
        defer { if second.isRunning { second.terminate(); second.waitUntilExit() } }
        // Duplicates are allowed here, so counting results would stop before the last jobs finished.
        let results = try await harness.results(covering: Set(ids), idle: .seconds(15))
        second.terminate()
        await second.exited()
        let audit = ResultAudit(sent: Set(ids), results: results)
        #expect(audit.lost.isEmpty, "lost: \(audit.lost.prefix(5))")
        #expect(audit.unexpected.isEmpty)
        #expect(audit.conflicting.isEmpty)
        #expect(audit.duplicates <= harness.settings.worker.prefetch)
        #expect(harness.mock.server.recorder.snapshot.duplicateAPNsIDs.count <= harness.settings.worker.prefetch)
        #expect(second.terminationStatus == 0)
        await harness.tearDown()
    }

    @Test("SIGTERM mid-run: the worker drains and exits 0; a restart finishes; nothing lost, nothing duplicated")
    func sigterm() async throws {
        let harness = try await WorkerHarness.make(mockSetup: { $0.faults.latency = .fixed(milliseconds: 5) })
        let ids = (0..<3000).map { "term-\($0)" }
        try await harness.publish(ids.map { JobFactory.alert(id: $0) })
        let first = try harness.launchWorker()
        defer { if first.isRunning { first.terminate(); first.waitUntilExit() } }
        try await waitUntil(harness) { harness.mock.server.recorder.snapshot.accepted >= 600 }
        first.terminate()
        await first.exited()
        #expect(first.terminationStatus == 0)
        let second = try harness.launchWorker()
        defer { if second.isRunning { second.terminate(); second.waitUntilExit() } }
        let results = try await harness.results(count: ids.count, idle: .seconds(15))
        second.terminate()
        await second.exited()
        let audit = ResultAudit(sent: Set(ids), results: results)
        #expect(audit.lost.isEmpty, "lost: \(audit.lost.prefix(5))")
        #expect(audit.unexpected.isEmpty)
        #expect(audit.duplicates == 0)
        #expect(harness.mock.server.recorder.snapshot.duplicateAPNsIDs.isEmpty)
        await harness.tearDown()
    }

    @Test("rabbitmqctl close_connection mid-run: the worker reconnects and nothing is lost")
    func brokerClosesConnection() async throws {
        let harness = try await WorkerHarness.make(mockSetup: { mock in
            mock.faults.latency = .fixed(milliseconds: 5)
            // From request 700 on APNs takes 2 s, so the close (rabbitmqctl takes about a second)
            // surely comes mid-run, however fast the worker got through the first ones.
            mock.faults.slowAfterRequests = 700
            mock.faults.slowLatency = .fixed(milliseconds: 2000)
        }) {
            $0.amqp.connectionName = "worker-under-test-\(UUID().uuidString.prefix(8))"
        }
        let ids = (0..<3000).map { "close-\($0)" }
        try await harness.publish(ids.map { JobFactory.alert(id: $0) })
        let worker = try await harness.startWorker()
        try await waitUntil { harness.mock.server.recorder.snapshot.accepted >= 600 }
        try await RabbitMQControl.forceClose(connectionNamed: harness.settings.amqp.connectionName)
        var fast = harness.mock.server.faults
        fast.slowAfterRequests = nil
        harness.mock.server.setFaults(fast)
        let results = try await harness.results(covering: Set(ids), idle: .seconds(15))
        try await worker.stop()
        let audit = ResultAudit(sent: Set(ids), results: results)
        #expect(audit.lost.isEmpty, "lost: \(audit.lost.prefix(5))")
        #expect(audit.unexpected.isEmpty)
        #expect(audit.conflicting.isEmpty)
        #expect(audit.duplicates <= harness.settings.worker.prefetch)
        #expect(worker.service.shards.contains { $0.amqp.generation >= 2 }, "the closed connection was opened again")
        await harness.tearDown()
    }
}

/// Polls `condition` every 20 ms for up to 30 s; the error quotes the worker process's log, if any.
func waitUntil(_ harness: WorkerHarness? = nil, _ condition: () -> Bool) async throws {
    try await Condition.wait(
        "the worker's condition", context: { harness.map { "worker log:\n\($0.processLog.suffix(2000))" } ?? "" }, condition)
}
