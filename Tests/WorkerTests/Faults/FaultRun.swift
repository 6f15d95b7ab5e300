import AMQP
import APNsCore
import Foundation
import MockAPNs
import Synchronization
import TestSupport
import Worker
import WorkerConfiguration

/// What a scenario's action can reach while its worker runs: the harness, the process, the collectors,
/// the broker, and a notebook for figures that go into the report's notes.
struct FaultRun: Sendable {
    let scenario: FaultScenario
    let harness: WorkerHarness
    let worker: WorkerProcess
    /// Every worker process slot of the scenario's fleet; the first is ``worker``.
    let fleet: [WorkerProcess]
    let results: QueueCollector
    let deadLetters: QueueCollector
    let metricsPort: Int
    let notebook: Notebook
    let started: ContinuousClock.Instant

    var mock: MockAPNsServer { harness.mock.server }
    var settings: WorkerSettings { harness.settings }

    /// Adds a figure to the notes column (e.g. "killed at 612 accepted").
    func note(_ text: String) { notebook.add(text) }

    /// Keeps a named figure for the scenario's checks (e.g. a metric read while the worker ran).
    func record(_ fact: String, _ value: Double) { notebook.set(fact, value) }

    /// Polls `condition` every 50 ms until `timeout`; the error quotes the worker's log.
    func waitUntil(_ what: String, timeout: Duration = .seconds(60), _ condition: () throws -> Bool) async throws {
        try await Condition.wait(
            "\(scenario.name): \(what)", timeout: timeout, interval: .milliseconds(50),
            context: { "worker log:\n\(harness.processLog.suffix(3000))" }, condition)
    }

    /// ``waitUntil(_:timeout:_:)`` for a condition that must await to find out (rabbitmqctl).
    func waitUntil(_ what: String, timeout: Duration = .seconds(60), asking condition: () async throws -> Bool) async throws {
        try await Condition.wait(
            "\(scenario.name): \(what)", timeout: timeout, interval: .milliseconds(50),
            context: { "worker log:\n\(harness.processLog.suffix(3000))" }, asking: condition)
    }

    /// Result messages collected so far that `worker` (a `worker.name`) published.
    func resultsBy(worker: String) -> Int {
        results.messages.count { (try? JobResult.decode($0.body))?.worker == worker }
    }

    /// Sends every answer the mock holds (``MockFaults/holdAfterRequests``) and holds no more;
    /// returns the pushes accepted until then.
    func releaseHeldAnswers() -> Int {
        let accepted = mock.recorder.snapshot.accepted
        mock.releaseHeldAnswers()
        return accepted
    }

    /// Waits until the mock accepted `count` pushes: the "mid-load" moment of most actions.
    func waitForAccepted(_ count: Int) async throws {
        try await waitUntil("\(count) pushes accepted") { mock.recorder.snapshot.accepted >= count }
    }

    /// One series of the worker's `/metrics` (the first sample line starting with `series`), or nil.
    func metric(_ series: String) throws -> Double? {
        let text = try Self.get(port: metricsPort, path: "/metrics")
        let line = text.split(separator: "\n").first { $0.hasPrefix(series + " ") }
        return line.flatMap { Double($0.split(separator: " ").last ?? "") }
    }

    /// Messages in `queue`, ready and unacked, as `rabbitmqctl list_queues` reports them.
    func depth(of queue: String) async throws -> Int {
        let listing = try await RabbitMQControl.run(["-q", "list_queues", "name", "messages"])
        let row = listing.split(separator: "\n").map { $0.split(separator: "\t") }.first { $0.first.map(String.init) == queue }
        return row.flatMap { $0.last.flatMap { Int($0) } } ?? 0
    }

    /// Stops the test broker and starts it again (`scripts/rabbitmq.sh stop`, `start`). It is started
    /// again whatever happens, so the shared broker is never left down.
    /// `whileDown` runs once the stop has returned, before the start.
    func restartBroker(whileDown: () async throws -> Void = {}) async throws {
        do {
            try await Self.brokerScript("stop")
            try await whileDown()
            try await Task.sleep(for: .seconds(1))
            try await Self.brokerScript("start")
        } catch {
            try? await Self.brokerScript("start")
            throw error
        }
    }

    /// A client for topology changes and publishing, on a connection of its own.
    func client(_ name: String) async throws -> AMQPClient {
        try await Self.client(of: harness, name: name)
    }

    /// Declares the harness's topology (idempotent).
    func declareTopology() async throws {
        try await Self.declareTopology(of: harness)
    }

    static func client(of harness: WorkerHarness, name: String) async throws -> AMQPClient {
        var options = try harness.harnessClientOptions()
        options.connectionName = "\(harness.prefix)\(name)"
        let client = AMQPClient(options: options, logger: WorkerHarness.quietLogger(name))
        try await client.connect()
        return client
    }

    /// Declares through the worker's first node: a quorum queue's leader is where it was declared
    /// (RabbitMQ's client-local placement), so in a cluster every leader sits with the worker's first
    /// connection, the node a cluster scenario kills.
    static func declareTopology(of harness: WorkerHarness) async throws {
        var options = try harness.settings.amqp.clientOptions()
        options.endpoints = Array(options.endpoints.prefix(1))
        options.connectionName = "\(harness.prefix)declare"
        let client = AMQPClient(options: options, logger: WorkerHarness.quietLogger("declare"))
        try await client.connect()
        let topology = Topology(settings: harness.settings.topology)
        try await topology.declare(on: client)
        await client.close()
    }

    /// Publishes bodies to the jobs exchange, mandatory and confirmed, each with a `published-at` header
    /// so results' `latency_ms` counts from here across every retry.
    func publish(_ bodies: [[UInt8]], headers: [String: AMQPFieldValue] = [:], lane: Lane = .bulk) async throws {
        let producer = try await client("producer")
        let exchange = settings.topology.jobsExchange
        let key = settings.topology.routingKey(of: lane)
        try await withThrowingTaskGroup(of: AMQPPublishOutcome.self) { group in
            for (index, body) in bodies.enumerated() {
                if index >= 200, let outcome = try await group.next(), outcome != .confirmed { throw HarnessError("job not confirmed: \(outcome)") }
                var properties = AMQPProperties(contentType: "application/json", persistent: true, headers: headers)
                properties.headers["published-at"] = .int(Int64(Date().timeIntervalSince1970 * 1000))
                let message = AMQPMessage(body: body, properties: properties)
                group.addTask { try await producer.publish(exchange: exchange, routingKey: key, message: message, mandatory: true) }
            }
            for try await outcome in group where outcome != .confirmed { throw HarnessError("job not confirmed: \(outcome)") }
        }
        await producer.close()
    }

    static let clusterScriptPath = Fixtures.directory.deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("scripts/rabbitmq-cluster.sh").path

    /// Runs `scripts/rabbitmq-cluster.sh ARGUMENTS…`; a failure quotes the end of what it printed.
    static func clusterScript(_ arguments: [String]) async throws {
        let log = FileManager.default.temporaryDirectory.appendingPathComponent("cluster-\(UUID().uuidString.prefix(8)).log").path
        defer { try? FileManager.default.removeItem(atPath: log) }
        let status = try await Subprocess.run(["/bin/bash", clusterScriptPath] + arguments, log: log)
        guard status == 0 else {
            let output = (try? String(contentsOfFile: log, encoding: .utf8)) ?? ""
            throw HarnessError("scripts/rabbitmq-cluster.sh \(arguments.joined(separator: " ")) exited with \(status): \(output.suffix(1500))")
        }
    }

    /// `scripts/rabbitmq-cluster.sh ARGUMENTS…` (kill, stop-node, restart a node), noted in the row.
    func cluster(_ arguments: String...) async throws {
        let before = mock.recorder.snapshot.accepted
        try await Self.clusterScript(arguments)
        note("\(arguments.joined(separator: " ")) at \(before)–\(mock.recorder.snapshot.accepted) accepted")
    }

    /// `scripts/rabbitmq.sh ARGUMENT`, waited for without blocking a thread; throws on a non-zero exit.
    static func brokerScript(_ argument: String) async throws {
        let script = Fixtures.directory.deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("scripts/rabbitmq.sh")
        let status = try await Subprocess.run(["/bin/bash", script.path, argument])
        guard status == 0 else { throw HarnessError("scripts/rabbitmq.sh \(argument) exited with \(status)") }
    }

    /// A plain GET through curl (the worker's operations port is loopback-only).
    static func get(port: Int, path: String) throws -> String {
        let run = try ProcessRun.blocking("/usr/bin/curl", ["-sf", "--max-time", "10", "http://127.0.0.1:\(port)\(path)"])
        guard run.status == 0 else { throw HarnessError("GET \(path) on port \(port): curl exited with \(run.status)") }
        return run.output
    }

    /// A port for a test server (``FreePort/pick()``).
    static func freePort() -> Int { FreePort.pick() }
}
