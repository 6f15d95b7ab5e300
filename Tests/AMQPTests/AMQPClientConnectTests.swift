import Foundation
import Testing
import TestSupport
@testable import AMQP

@Suite("AMQP client: connecting and closing (real RabbitMQ)", .io)
struct AMQPClientConnectTests {
    @Test("the library is rabbitmq-c 0.11 or newer")
    func version() {
        #expect(AMQPLibrary.version.hasPrefix("0.1"))
    }

    @Test("connect makes generation 1; close stops the client and later calls fail as not connected")
    func connectAndClose() async throws {
        let client = try await TestBroker.connectedClient()
        #expect(client.generation == 1)
        try await client.connect()
        #expect(client.generation == 1, "a second connect() is a no-op")
        let version = try #require(client.serverVersion, "the broker names its release")
        #expect(version >= RabbitMQVersion(3, 10, 0), "\(version)")
        await client.close()
        let error = await #expect(throws: AMQPError.self) {
            try await client.publish(exchange: "", routingKey: "nowhere", message: .text("x"), mandatory: false)
        }
        #expect(error?.code == .notConnected)
        await client.close()
    }

    @Test("calls before connect() fail as not connected without sending anything")
    func beforeConnect() async {
        let client = TestBroker.client(TestBroker.options())
        let error = await #expect(throws: AMQPError.self) { try await client.declare(queues: [TestBroker.queue("never")]) }
        #expect(error?.code == .notConnected)
        #expect(client.generation == 0)
        await client.close()
    }

    @Test("a wrong password is a broker refusal (403), and the password is in no error")
    func wrongPassword() async throws {
        var options = TestBroker.options()
        let password = "not-the-password-\(UUID().uuidString)"
        options.endpoints[0].password = password
        let client = TestBroker.client(options)
        let started = ContinuousClock.now
        let error = await #expect(throws: AMQPError.self) { try await client.connect(retryingFor: .seconds(300)) }
        #expect(error?.code == .brokerClosed(replyCode: 403))
        #expect(ContinuousClock.now - started < .seconds(60), "a refused login is not retried: waiting cannot fix a password")
        #expect(error.map { !"\($0)".contains(password) } == true)
        #expect(!"\(options.endpoints[0])".contains(password))
    }

    @Test("a password file overrides the endpoints' passwords")
    func passwordFile() async throws {
        var options = TestBroker.options()
        options.endpoints[0].password = "wrong"
        options.passwordFile = try TemporaryFile.write("guest\n", mode: 0o600)
        let client = try await TestBroker.connectedClient(options)
        #expect(client.generation == 1)
        await client.close()
    }

    @Test("nothing listening is a connection-level library error naming the endpoint")
    func refused() async {
        var options = TestBroker.options()
        options.endpoints = [AMQPEndpoint(host: "127.0.0.1", port: 1)]
        let client = TestBroker.client(options)
        let error = await #expect(throws: AMQPError.self) { try await client.connect() }
        guard case .library = error?.code else { Issue.record("expected a library error, got \(String(describing: error))"); return }
        #expect(error?.operation.contains("127.0.0.1:1") == true)
        #expect(error?.isConnectionLevel == true)
    }

    @Test("with several endpoints the first that works is used")
    func firstWorkingEndpoint() async throws {
        var options = TestBroker.options()
        options.endpoints = [AMQPEndpoint(host: "127.0.0.1", port: 1), TestBroker.endpoint]
        let client = try await TestBroker.connectedClient(options)
        #expect(client.generation == 1)
        await client.close()
    }

    @Test("amqps to a plain AMQP port fails the TLS handshake instead of hanging")
    func tlsAgainstPlainPort() async {
        var options = TestBroker.options()
        options.endpoints = [AMQPEndpoint(host: "127.0.0.1", port: TestBroker.port, usesTLS: true)]
        options.connectTimeout = .seconds(3)
        let client = TestBroker.client(options)
        let started = ContinuousClock.now
        let error = await #expect(throws: AMQPError.self) { try await client.connect() }
        guard case .library = error?.code else { Issue.record("expected a library error, got \(String(describing: error))"); return }
        // Bounded by the connect timeout, not hung; generous because the suite shares 2 busy cores.
        #expect(ContinuousClock.now - started < .seconds(30))
    }

    @Test("a client certificate without its key is an invalid argument")
    func certificateWithoutKey() async {
        var options = TestBroker.options()
        options.endpoints = [AMQPEndpoint(host: "127.0.0.1", port: TestBroker.port, usesTLS: true)]
        options.tls.certificateFile = "/nonexistent.pem"
        let client = TestBroker.client(options)
        let error = await #expect(throws: AMQPError.self) { try await client.connect() }
        #expect(error?.code == .invalidArgument)
    }
}

@Suite("AMQP client: readiness flags (real RabbitMQ)", .io)
struct AMQPReadinessFlagsTests {
    @Test("connected and consuming follow connect, consume, cancel and close")
    func flags() async throws {
        let client = TestBroker.client()
        #expect(!client.isConnected && !client.isConsuming)
        try await client.connect()
        #expect(client.isConnected && !client.isConsuming)
        let queue = TestBroker.uniqueName("flags")
        try await client.declare(queues: [TestBroker.queue(queue)])
        _ = try await client.consume(queue: queue, prefetch: 1)
        #expect(client.isConsuming)
        await client.cancelConsuming()
        #expect(!client.isConsuming && client.isConnected)
        try await client.deleteQueue(queue)
        await client.close()
        #expect(!client.isConnected)
    }
}
