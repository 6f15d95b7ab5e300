import Testing
import TestSupport
@testable import AMQP

@Suite("AMQP client: declarations (real RabbitMQ)", .io)
struct AMQPTopologyTests {
    static func jobQueue(_ name: String, deadLetterExchange: String, deliveryLimit: Int64 = 5) -> AMQPQueueDeclaration {
        TestBroker.queue(name, quorum: true, arguments: [
            "x-delivery-limit": .int(deliveryLimit),
            "x-dead-letter-exchange": .string(deadLetterExchange),
            "x-dead-letter-routing-key": "dead",
        ])
    }

    @Test("exchange, quorum queue with delivery limit and dead-letter arguments, and binding: declared twice")
    func idempotent() async throws {
        let client = try await TestBroker.connectedClient()
        let exchange = AMQPExchangeDeclaration(name: TestBroker.uniqueName("jobs"), type: .direct)
        let queue = Self.jobQueue(TestBroker.uniqueName("jobs"), deadLetterExchange: exchange.name)
        let binding = AMQPBindingDeclaration(queue: queue.name, exchange: exchange.name, routingKey: "send")
        try await client.declare(exchanges: [exchange], queues: [queue], bindings: [binding])
        try await client.declare(exchanges: [exchange], queues: [queue], bindings: [binding])
        let routed = try await client.publish(exchange: exchange.name, routingKey: "send", message: .text("routed"), mandatory: true)
        #expect(routed == .confirmed)
        try await client.deleteQueue(queue.name)
        try await client.deleteExchange(exchange.name)
        await client.close()
    }

    @Test("re-declaring with different arguments is a 406, and the client stays usable")
    func mismatch() async throws {
        let client = try await TestBroker.connectedClient()
        let name = TestBroker.uniqueName("mismatch")
        let original = Self.jobQueue(name, deadLetterExchange: "", deliveryLimit: 5)
        try await client.declare(queues: [original])
        let error = await #expect(throws: AMQPError.self) {
            try await client.declare(queues: [Self.jobQueue(name, deadLetterExchange: "", deliveryLimit: 9)])
        }
        #expect(error?.code == .brokerClosed(replyCode: 406))
        #expect(error?.message.contains("x-delivery-limit") == true)
        try await client.declare(queues: [original])
        #expect(try await client.publish(exchange: "", routingKey: name, message: .text("still fine"), mandatory: true) == .confirmed)
        #expect(client.generation == 1, "a refused declaration must not cost the connection")
        try await client.deleteQueue(name)
        await client.close()
    }

    @Test("declaring an exchange with another type is a 406 too")
    func exchangeMismatch() async throws {
        let client = try await TestBroker.connectedClient()
        let name = TestBroker.uniqueName("exchange")
        try await client.declare(exchanges: [AMQPExchangeDeclaration(name: name, type: .direct)])
        let error = await #expect(throws: AMQPError.self) {
            try await client.declare(exchanges: [AMQPExchangeDeclaration(name: name, type: .fanout)])
        }
        #expect(error?.code == .brokerClosed(replyCode: 406))
        try await client.deleteExchange(name)
        await client.close()
    }
}
