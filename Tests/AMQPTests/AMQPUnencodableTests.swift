import Testing
import TestSupport
@testable import AMQP

@Suite("AMQP client: a message it cannot encode fails alone (real RabbitMQ)", .io)
struct AMQPUnencodableTests {
    @Test("over-long short strings and keys, bad expirations and oversized headers fail the publish, not the connection", arguments: [
        AMQPProperties(correlationID: String(repeating: "c", count: 10_000)),
        AMQPProperties(messageID: String(repeating: "€", count: 86)),
        AMQPProperties(headers: [String(repeating: "k", count: 300): true]),
        AMQPProperties(headers: ["ok": .table([String(repeating: "n", count: 256): 1])]),
        AMQPProperties(expiration: "soon"),
        AMQPProperties(headers: ["blob": .string(String(repeating: "b", count: 200_000))]),
    ])
    func refusedAlone(properties: AMQPProperties) async throws {
        let client = try await TestBroker.connectedClient()
        let queue = TestBroker.uniqueName("unencodable")
        try await client.declare(queues: [TestBroker.queue(queue)])
        let error = await #expect(throws: AMQPError.self) {
            try await client.publish(exchange: "", routingKey: queue, message: AMQPMessage(body: [1], properties: properties), mandatory: true)
        }
        #expect(error?.code == .invalidArgument)
        #expect(error?.message.contains("cannot be encoded") == true)
        // The same connection goes on: the next publish is confirmed on generation 1.
        #expect(try await client.publish(exchange: "", routingKey: queue, message: .text("after"), mandatory: true) == .confirmed)
        #expect(client.generation == 1)
        let long = String(repeating: "q", count: 256)
        let routing = await #expect(throws: AMQPError.self) { try await client.publish(exchange: "", routingKey: long, message: .text("x"), mandatory: true) }
        #expect(routing?.code == .invalidArgument)
        #expect(client.generation == 1)
        try await client.deleteQueue(queue)
        await client.close()
    }
}
