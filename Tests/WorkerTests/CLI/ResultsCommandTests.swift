import AMQP
import Foundation
import Testing
import TestSupport
import Worker
import WorkerConfiguration

/// `apns-worker results` as a user runs it against a shared results queue: it reads without taking
/// unless told to drain, and prints each result with `--json`.
@Suite("apns-worker results (a real process against the test broker)", .io)
struct ResultsCommandTests {
    func run(_ harness: WorkerHarness, _ arguments: [String]) async throws -> ProcessRun {
        let config = try TemporaryFile.write(harness.settings.yaml, mode: 0o600)
        return try await ProcessRun.run(WorkerCommandLine.binary, ["results", "--config", config, "--idle-timeout", "2"] + arguments)
    }

    /// The results ready in the queue once it holds `expected` (polled for up to 30 s; a different
    /// count then fails the wait, quoting it).
    func ready(_ harness: WorkerHarness, _ client: AMQPClient, settlingAt expected: Int) async throws -> Int {
        let queue = try #require(harness.settings.topology.resultsQueue)
        var count = -1
        try await Condition.wait("\(expected) results ready in \(queue)", context: { "last count \(count)" }) {
            count = try await client.readyMessageCount(inQueue: queue)
            return count == expected
        }
        return count
    }

    @Test("read leaves the results in the queue, --json prints each, --drain removes them")
    func readJSONAndDrain() async throws {
        let harness = try await WorkerHarness.make()
        let worker = try await harness.startWorker()
        try await harness.publish((0..<30).map { JobFactory.alert(id: "res-\($0)") })
        let client = try await FaultRun.client(of: harness, name: "results-check")
        #expect(try await ready(harness, client, settlingAt: 30) == 30)
        try await worker.stop()

        let summary = try await run(harness, ["--expect", "30"])
        #expect(summary.status == 0)
        #expect(summary.output.contains("30 result(s)") && summary.output.contains("delivered"), "\(summary.output)")
        #expect(!summary.output.contains("results/s over 0.0 s"))
        #expect(try await ready(harness, client, settlingAt: 30) == 30, "a read hands every result back")

        let json = try await run(harness, ["--json", "--expect", "30"])
        let lines = json.output.split(separator: "\n")
        #expect(lines.count == 30, "\(json.output.prefix(300))")
        #expect(Set(lines.compactMap { try? JobResult.decode(Array($0.utf8)).id }) == Set((0..<30).map { "res-\($0)" }))
        #expect(try await ready(harness, client, settlingAt: 30) == 30)

        // Read over and over (each look is a delivery): on RabbitMQ 4.x, a queue without its own delivery
        // limit would drop every result after the 20th.
        for _ in 0..<22 { _ = try await run(harness, ["--expect", "30"]) }
        #expect(try await ready(harness, client, settlingAt: 30) == 30, "results looked at 24 times (two reads above, 22 here) are all still there")

        let drained = try await run(harness, ["--drain", "--expect", "30"])
        #expect(drained.status == 0, "\(drained.output)")
        #expect(try await ready(harness, client, settlingAt: 0) == 0, "--drain removes what it read")
        await client.close()
        await harness.tearDown()
    }
}
