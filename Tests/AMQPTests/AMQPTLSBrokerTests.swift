import Foundation
import Testing
import TestSupport
@testable import AMQP

/// amqps against the test broker itself: RabbitMQ's TLS listener (`scripts/rabbitmq.sh`, port + 1000,
/// the test-only certificates), the client's TLS from the project's own module over NIO.
@Suite("AMQP client: amqps against the test broker (real RabbitMQ, real TLS)", .enabled(if: TestBroker.tlsPort != nil), .io)
struct AMQPTLSBrokerTests {
    static func options(host: String, caFile: String = Fixtures.path("tls/ca.pem")) -> AMQPClientOptions {
        var options = TestBroker.options()
        options.endpoints = [AMQPEndpoint(host: host, port: TestBroker.tlsPort!, usesTLS: true)]
        options.tls = AMQPTLSOptions(caFile: caFile)
        return options
    }

    @Test("publish with confirms, consume and ack over amqps, the broker verified by its name and by its address", arguments: ["localhost", "127.0.0.1"])
    func roundTrip(host: String) async throws {
        let client = try await TestBroker.connectedClient(Self.options(host: host))
        let queue = TestBroker.uniqueName("tls")
        try await client.declare(queues: [TestBroker.queue(queue, quorum: true)])
        let large = String(repeating: "x", count: 300_000)  // several TLS records and AMQP frames
        try await AMQPConsumeTests.fill(client, queue, ["small", large])
        let inbox = DeliveryInbox(try await client.consume(queue: queue, prefetch: 10))
        let deliveries = await inbox.take(2)
        #expect(deliveries.map(\.message.text) == ["small", large])
        for delivery in deliveries { await client.ack(delivery) }
        await client.cancelConsuming()
        try await client.deleteQueue(queue)
        await client.close()
    }

    @Test("a broker whose certificate no trusted CA signed is refused before any AMQP")
    func untrusted() async throws {
        let client = TestBroker.client(Self.options(host: "localhost", caFile: Fixtures.path("tls/untrusted-ca.pem")))
        let error = await #expect(throws: AMQPError.self) { try await client.connect() }
        #expect(error?.code == .library(status: AMQPTLSTests.peerVerifyFailed), "\(String(describing: error))")
    }
}
