import AMQP
import Foundation
import Logging
import TestSupport

/// The broker the test command starts (`scripts/rabbitmq.sh start`), and helpers around it.
enum TestBroker {
    static let port = Int(ProcessInfo.processInfo.environment["APNS_RABBITMQ_PORT"] ?? "") ?? 5673
    static let endpoint = AMQPEndpoint(host: "127.0.0.1", port: port)
    /// The broker's amqps port (`scripts/rabbitmq.sh env`), nil when the environment does not name one.
    static let tlsPort = ProcessInfo.processInfo.environment["APNS_TEST_AMQPS_PORT"].flatMap { Int($0) }

    /// Options for a test client with a unique connection name (so `rabbitmqctl` can find it) and fast reconnects.
    static func options(name: String = uniqueName("client")) -> AMQPClientOptions {
        var options = AMQPClientOptions(endpoints: [endpoint])
        options.connectionName = name
        options.initialReconnectDelay = .milliseconds(50)
        options.maximumReconnectDelay = .milliseconds(500)
        options.connectTimeout = .seconds(5)
        return options
    }

    /// A client that is not connected yet, logging only critical messages.
    static func client(_ options: AMQPClientOptions = options()) -> AMQPClient {
        var logger = Logger(label: "amqp-test")
        logger.logLevel = ProcessInfo.processInfo.environment["AMQP_TEST_LOG"] == nil ? .critical : .debug
        return AMQPClient(options: options, logger: logger)
    }

    /// A connected client; the caller closes it.
    static func connectedClient(_ options: AMQPClientOptions = options()) async throws -> AMQPClient {
        try TestTier.requireIO("the test broker")
        let client = client(options)
        try await client.connect()
        return client
    }

    /// A name no other test (or earlier run) uses.
    static func uniqueName(_ purpose: String) -> String {
        "amqp-test-\(purpose)-\(UUID().uuidString.prefix(8).lowercased())"
    }

    /// A queue that the broker deletes by itself a minute after its last use, should a test fail before
    /// deleting it; `quorum` makes it a durable quorum queue.
    static func queue(_ name: String, quorum: Bool = false, arguments: [String: AMQPFieldValue] = [:]) -> AMQPQueueDeclaration {
        var all = arguments
        all["x-expires"] = .int(60_000)
        if quorum { all["x-queue-type"] = "quorum" }
        return AMQPQueueDeclaration(name: name, durable: true, arguments: all)
    }

    /// Forces the broker to close the connection whose `connection_name` is `name`, as an operator would.
    static func forceClose(connectionNamed name: String) async throws {
        try await RabbitMQControl.forceClose(connectionNamed: name)
    }
}
