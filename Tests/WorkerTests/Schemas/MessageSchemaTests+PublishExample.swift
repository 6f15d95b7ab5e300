import AMQP
import Foundation
import MockAPNs
import TestSupport
import Testing
import Worker
import WorkerConfiguration

/// `examples/python/publish_jobs.py` against the test broker and a real worker (in this process) with
/// the mock APNs: the example works as its README says, and what the worker publishes fits the schema.
extension MessageSchemaTests {
    static let publisher = Fixtures.repository.appendingPathComponent("examples/python/publish_jobs.py").path
    static let exampleJobs = 20

    /// Runs the publisher against `harness`'s jobs exchange, with ids `<idPrefix>-1…`.
    func runPublisher(_ harness: WorkerHarness, idPrefix: String, extra: [String]) async throws -> ProcessRun {
        try await ProcessRun.run("/usr/bin/python3", [
            Self.publisher,
            "--url", "amqp://guest:guest@127.0.0.1:\(TestBrokerPort.value)/",
            "--exchange", harness.settings.topology.jobsExchange,
            "--routing-key", harness.settings.topology.jobsRoutingKey,
            "--count", "\(Self.exampleJobs)",
            "--topic", "com.example.app",
            "--id-prefix", idPrefix,
        ] + extra, timeout: .seconds(120))
    }

    static func expectedIDs(_ prefix: String) -> Set<String> {
        Set((1...exampleJobs).map { "\(prefix)-\($0)" })
    }

    @Test("publish_jobs.py --wait-results: 20 jobs confirmed, 20 delivered results on its reply queue, each valid")
    func pythonExampleWaitsForResults() async throws {
        let harness = try await WorkerHarness.make()
        try await harness.publish([])  // declares the topology, as `apns-worker declare` would
        let worker = try await harness.startWorker()
        let prefix = "py-\(UUID().uuidString.prefix(8).lowercased())"
        let outcome = try await runPublisher(harness, idPrefix: prefix, extra: ["--wait-results", "--json", "--timeout", "60"])
        // Before the stop, which may throw: a failed publisher's transcript is what explains it.
        #expect(outcome.succeeded, "\(outcome.transcript)")
        try await worker.stop()
        await harness.tearDown()

        let bodies = outcome.output.split(separator: "\n").map { Array($0.utf8) }
        #expect(bodies.count == Self.exampleJobs, "\(outcome.transcript)")
        let results = try bodies.map { try JobResult.decode($0) }
        #expect(Set(results.compactMap(\.id)) == Self.expectedIDs(prefix))
        #expect(results.allSatisfy { $0.status == .delivered }, "\(results.filter { $0.status != .delivered })")
        let validation = try await SchemaValidator.validate(bodies, against: .result)
        #expect(validation.succeeded, "\(validation.transcript)")
    }

    @Test("publish_jobs.py --tokens 100: multicast jobs, one summary result each with 100 delivered, each valid")
    func pythonExampleMulticast() async throws {
        let harness = try await WorkerHarness.make()
        try await harness.publish([])
        let worker = try await harness.startWorker()
        let prefix = "py-\(UUID().uuidString.prefix(8).lowercased())"
        let outcome = try await runPublisher(harness, idPrefix: prefix, extra: ["--tokens", "100", "--wait-results", "--json", "--timeout", "60"])
        // Before the stop, which may throw: a failed publisher's transcript is what explains it.
        #expect(outcome.succeeded, "\(outcome.transcript)")
        try await worker.stop()
        await harness.tearDown()

        let bodies = outcome.output.split(separator: "\n").map { Array($0.utf8) }
        let results = try bodies.map { try JobResult.decode($0) }
        #expect(Set(results.compactMap(\.id)) == Self.expectedIDs(prefix))
        #expect(results.allSatisfy { $0.status == .delivered && $0.tokens?.delivered == 100 && $0.failures == [] }, "\(results.prefix(2))")
        #expect(harness.mock.server.recorder.snapshot.accepted == 100 * Self.exampleJobs)
        let validation = try await SchemaValidator.validate(bodies, against: .result)
        #expect(validation.succeeded, "\(validation.transcript)")
    }

    @Test("publish_jobs.py without reply_to: the results reach the results exchange, with correlation_id = job id, each valid")
    func pythonExampleResultsOnExchange() async throws {
        let harness = try await WorkerHarness.make()
        try await harness.publish([])
        let worker = try await harness.startWorker()
        let prefix = "py-\(UUID().uuidString.prefix(8).lowercased())"
        let outcome = try await runPublisher(harness, idPrefix: prefix, extra: [])
        let messages = try await harness.drain(harness.settings.topology.resultsQueue!, count: Self.exampleJobs)
        // Before the stop, which may throw: a failed publisher's transcript is what explains it.
        #expect(outcome.succeeded, "\(outcome.transcript)")
        try await worker.stop()
        await harness.tearDown()

        #expect(outcome.errors.contains("published \(Self.exampleJobs) job(s): \(Self.exampleJobs) confirmed, 0 not"), "\(outcome.transcript)")
        #expect(messages.count == Self.exampleJobs)
        let results = try messages.map { try JobResult.decode($0.body) }
        #expect(Set(results.compactMap(\.id)) == Self.expectedIDs(prefix))
        #expect(results.allSatisfy { $0.status == .delivered }, "\(results.filter { $0.status != .delivered })")
        #expect(messages.allSatisfy { $0.properties.contentType == "application/json" })
        #expect(zip(messages, results).allSatisfy { $0.properties.correlationID == $1.id })
        let validation = try await SchemaValidator.validate(messages.map(\.body), against: .result)
        #expect(validation.succeeded, "\(validation.transcript)")
    }
}
