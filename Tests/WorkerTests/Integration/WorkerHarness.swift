import AMQP
import APNsClient
import APNsCore
import Foundation
import Logging
import MockAPNs
import ServiceLifecycle
import TestSupport
import Worker
import WorkerConfiguration

/// A worker against the test broker and a mock APNs, on a topology of its own (names carry a unique
/// prefix, so suites share the broker without seeing each other's messages).
struct WorkerHarness {
    let mock: MockHarness
    let settings: WorkerSettings
    let prefix: String
    /// Where the harness's own clients (publishers, collectors) connect, when not where the worker
    /// does: in a cluster, away from the node a scenario kills, so the harness sees no failover.
    var harnessURLs: [String]?

    /// Options for a client of the harness (not of the worker).
    func harnessClientOptions() throws -> AMQPClientOptions {
        var amqp = settings.amqp
        if let harnessURLs { amqp.urls = harnessURLs }
        return try amqp.clientOptions()
    }

    /// Starts a mock (adjusted by `mockSetup`) and prepares settings (adjusted by `setup`).
    static func make(
        mockSetup: (inout MockServerConfiguration) -> Void = { _ in },
        setup: (inout WorkerSettings) -> Void = { _ in }
    ) async throws -> WorkerHarness {
        let mock = try await MockHarness.start(mockSetup)
        let prefix = "wt-\(UUID().uuidString.prefix(8).lowercased())."
        var settings = WorkerSettings()
        settings.worker.name = "test-worker"
        settings.log.level = .warning
        settings.metrics.host = "127.0.0.1"
        settings.metrics.port = nil
        settings.worker.prefetch = 200
        settings.worker.maxAttempts = 3
        settings.worker.shutdownTimeout = .seconds(10)
        settings.worker.credentialBackoff = .seconds(1)
        settings.amqp.urls = ["amqp://guest:guest@127.0.0.1:\(TestBrokerPort.value)/"]
        settings.topology.jobsExchange = prefix + "jobs"
        settings.topology.jobsQueue = prefix + "jobs"
        settings.topology.urgentQueue = prefix + "jobs.urgent"
        settings.topology.retryExchange = prefix + "retry"
        settings.topology.retryQueuePrefix = prefix + "retry."
        settings.topology.retryTiers = [.milliseconds(200), .milliseconds(400)]
        settings.topology.deadExchange = prefix + "dead"
        settings.topology.deadQueue = prefix + "dead"
        settings.topology.resultsExchange = prefix + "results"
        settings.topology.resultsQueue = prefix + "results"
        settings.apns.endpoint = mock.endpoint
        settings.apns.caFile = Fixtures.path("tls/ca.pem")
        settings.apns.trustSystemStore = false
        settings.apns.requestTimeout = .seconds(3)
        settings.credentials = [
            CredentialSettings(
                name: "team-one",
                kind: .token(teamID: "TEAMID0001", keyID: "TESTKEY001", keyFile: try Fixtures.privateCopy(of: "keys/AuthKey_TESTKEY001.p8"), allowInsecureKeyPermissions: false, refreshAge: 50 * 60),
                environment: .development, topics: ["com.example.app"]
            ),
            CredentialSettings(
                name: "team-two",
                kind: .token(teamID: "TEAMID0002", keyID: "TESTKEY002", keyFile: try Fixtures.privateCopy(of: "keys/AuthKey_TESTKEY002.p8"), allowInsecureKeyPermissions: false, refreshAge: 50 * 60),
                environment: .development, topics: ["com.example.other"]
            ),
        ]
        setup(&settings)
        return WorkerHarness(mock: mock, settings: settings, prefix: prefix)
    }

    /// A worker service in this process, running until ``RunningWorker/stop()``.
    func startWorker() async throws -> RunningWorker {
        let logger = Self.quietLogger("worker")
        let service = try WorkerService(settings: settings, credentials: try CredentialRegistry.load(settings), logger: logger)
        let group = ServiceGroup(configuration: ServiceGroupConfiguration(services: [.init(service: service)], logger: logger))
        let task = Task { try await group.run() }
        return RunningWorker(service: service, group: group, task: task)
    }

    /// Declares the topology and publishes `bodies` as jobs of `lane`, each confirmed.
    func publish(_ bodies: [[UInt8]], lane: Lane = .bulk) async throws {
        let routingKey = settings.topology.routingKey(of: lane)
        let producer = AMQPClient(options: try settings.amqp.clientOptions(), logger: Self.quietLogger("producer"))
        try await producer.connect()
        let topology = Topology(settings: settings.topology)
        try await topology.declare(on: producer)
        try await withThrowingTaskGroup(of: AMQPPublishOutcome.self) { group in
            for (index, body) in bodies.enumerated() {
                if index >= 500, let outcome = try await group.next(), outcome != .confirmed { throw HarnessError("job not confirmed: \(outcome)") }
                var properties = AMQPProperties()
                properties.contentType = "application/json"
                properties.persistent = true
                let message = AMQPMessage(body: body, properties: properties)
                group.addTask {
                    try await producer.publish(exchange: settings.topology.jobsExchange, routingKey: routingKey, message: message, mandatory: true)
                }
            }
            for try await outcome in group where outcome != .confirmed { throw HarnessError("job not confirmed: \(outcome)") }
        }
        await producer.close()
    }

    /// Consumes `queue` until `count` messages arrived or nothing arrived for `idle`.
    func drain(_ queue: String, count: Int, idle: Duration = .seconds(10)) async throws -> [AMQPMessage] {
        try await drain(queue, idle: idle) { $0.count >= count }
    }

    /// Consumes `queue` until `done` holds for everything read so far, or nothing came for `idle` and
    /// `progress` (a count that grows while the work goes on, such as the requests the mock answered) did
    /// not move for `idle` either. Without `progress`, only arrivals count.
    func drain(
        _ queue: String, idle: Duration, progress: (() -> Int)? = nil, until done: ([AMQPMessage]) -> Bool
    ) async throws -> [AMQPMessage] {
        let declarer = AMQPClient(options: try settings.amqp.clientOptions(), logger: Self.quietLogger("declarer"))
        try await declarer.connect()
        try await Topology(settings: settings.topology).declare(on: declarer)
        await declarer.close()
        let collector = try await QueueCollector.start(self, queue: queue, name: "\(prefix)drain")
        var lastProgress = (value: progress?(), at: ContinuousClock.now)
        while !done(collector.messages) {
            if let value = progress?(), value != lastProgress.value { lastProgress = (value, .now) }
            let stillFor = progress == nil ? collector.quietFor : min(collector.quietFor, .now - lastProgress.at)
            if stillFor >= idle { break }
            try await Task.sleep(for: .milliseconds(50))
        }
        await collector.stop()
        return collector.messages
    }

    /// The results published so far, decoded.
    func results(count: Int, idle: Duration = .seconds(10)) async throws -> [JobResult] {
        try await drain(settings.topology.resultsQueue!, count: count, idle: idle).map { try JobResult.decode($0.body) }
    }

    /// Results until every job of `ids` has one (duplicates do not count towards it), or nothing came for `idle`.
    func results(covering ids: Set<String>, idle: Duration = .seconds(10)) async throws -> [JobResult] {
        try await drain(settings.topology.resultsQueue!, idle: idle) { messages in
            messages.count >= ids.count && Set(messages.compactMap { try? JobResult.decode($0.body).id }).isSuperset(of: ids)
        }.map { try JobResult.decode($0.body) }
    }

    /// Deletes this harness's queues and exchanges, and stops the mock.
    func tearDown() async {
        if let cleaner = try? AMQPClient(options: settings.amqp.clientOptions(), logger: Self.quietLogger("cleanup")),
            (try? await cleaner.connect()) != nil
        {
            let topology = Topology(settings: settings.topology)
            for queue in topology.queues { try? await cleaner.deleteQueue(queue.name) }
            for exchange in topology.exchanges { try? await cleaner.deleteExchange(exchange.name) }
            await cleaner.close()
        }
        await mock.server.stop()
    }

    static func quietLogger(_ label: String) -> Logger {
        var logger = Logger(label: label)
        logger.logLevel = ProcessInfo.processInfo.environment["WORKER_TEST_LOG"] == nil ? .critical : .debug
        return logger
    }
}

/// A worker service running in a service group.
struct RunningWorker {
    let service: WorkerService
    let group: ServiceGroup
    let task: Task<Void, any Error>

    /// Graceful shutdown: the worker drains and returns, rethrowing what its run threw. A worker still
    /// running after `limit` fails the test, naming the wait, instead of hanging the whole run.
    func stop(within limit: Duration = .seconds(120)) async throws {
        await group.triggerGracefulShutdown()
        let run = PolledTask { [task] in try await task.value }
        try await Condition.wait("the worker's run ended after a graceful shutdown", timeout: limit) { run.result != nil }
        try run.result?.get()
    }
}

/// The broker's port, as the test command exported it.
enum TestBrokerPort {
    static let value = Int(ProcessInfo.processInfo.environment["APNS_RABBITMQ_PORT"] ?? "") ?? 5673
}

/// The three-node cluster of `scripts/rabbitmq-cluster.sh` (`make faults-cluster`): node N serves AMQP
/// on base + N.
enum TestCluster {
    static let basePort = Int(ProcessInfo.processInfo.environment["APNS_CLUSTER_BASE_PORT"] ?? "") ?? 5680

    /// Node `node`'s URL (1…3).
    static func url(_ node: Int) -> String { "amqp://guest:guest@127.0.0.1:\(basePort + node)/" }
    static var urls: [String] { (1...3).map(url) }
}

struct HarnessError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
