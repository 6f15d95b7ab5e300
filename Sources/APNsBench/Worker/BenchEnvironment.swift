import APNsCore
import AMQP
import APNsClient
import Foundation
import Logging
import Worker
import WorkerConfiguration

/// One benchmark's world: the test broker, a mock APNs process, and a topology of its own (names carry
/// a unique prefix, so runs never see each other's messages).
struct BenchEnvironment {
    let brokerURL: String
    let mock: MockProcess
    let prefix: String
    var settings: WorkerSettings

    /// `urls`: the broker's nodes (the test broker's by default).
    init(prefetch: Int, connections: Int, mockArguments: [String] = [], urls: [String]? = nil) throws {
        let port = ProcessInfo.processInfo.environment["APNS_RABBITMQ_PORT"] ?? "5673"
        let urls = urls ?? ["amqp://guest:guest@127.0.0.1:\(port)/"]
        brokerURL = urls[0]
        // One event loop: the mock stands in for Apple's servers, which have cores of their own; on the
        // two shared here a second loop only adds wake-ups and preemption to what is measured.
        mock = try MockProcess(arguments: ["--threads", "1"] + mockArguments)
        prefix = "bench-\(UUID().uuidString.prefix(6).lowercased())."
        var settings = WorkerSettings()
        settings.worker.name = "bench"
        settings.worker.prefetch = prefetch
        settings.amqp.urls = urls
        for keyPath: WritableKeyPath<TopologySection, String> in [\.jobsExchange, \.jobsQueue, \.retryExchange, \.deadExchange, \.deadQueue, \.resultsExchange] {
            settings.topology[keyPath: keyPath] = prefix + settings.topology[keyPath: keyPath]
        }
        settings.topology.resultsQueue = prefix + "apns.results"
        settings.topology.urgentQueue = prefix + "apns.jobs.urgent"
        settings.topology.retryQueuePrefix = prefix + "apns.retry."
        settings.apns.endpoint = .init(host: "localhost", port: mock.port)
        settings.apns.caFile = "Tests/Fixtures/tls/ca.pem"
        settings.apns.trustSystemStore = false
        settings.apns.connections = connections
        settings.log.level = .warning
        self.settings = settings
    }

    /// A connected client for loading jobs, counting and cleaning up.
    func client(_ name: String) async throws -> AMQPClient {
        var logger = Logger(label: name)
        logger.logLevel = .critical
        let client = AMQPClient(options: try settings.amqp.clientOptions(), logger: logger)
        try await client.connect()
        let topology = Topology(settings: settings.topology)
        try await topology.declare(on: client)
        return client
    }

    /// Deletes the topology and stops the mock.
    func tearDown() async {
        if let client = try? await client("cleanup") {
            let topology = Topology(settings: settings.topology)
            for queue in topology.queues { try? await client.deleteQueue(queue.name) }
            for exchange in topology.exchanges { try? await client.deleteExchange(exchange.name) }
            await client.close()
        }
        mock.stop()
    }
}
