import Testing
import TestSupport
@testable import AMQP

@Suite("AMQP client: confirmed publishing (real RabbitMQ)", .io)
struct AMQPPublishTests {
    @Test("a publish is confirmed, and the consumed message keeps its body and every property")
    func roundTrip() async throws {
        let client = try await TestBroker.connectedClient()
        let queue = TestBroker.uniqueName("roundtrip")
        try await client.declare(queues: [TestBroker.queue(queue)])
        let properties = AMQPProperties(
            contentType: "application/json", messageID: "m-1", correlationID: "c-1", replyTo: "replies", persistent: true,
            headers: [
                "text": "héllo", "count": .int(-42), "big": .int(Int64.max), "flag": true, "ratio": 0.25,
                "list": .array(["a", .int(1), false]), "nested": .table(["inner": "x", "deeper": .table(["n": .int(7)])]),
            ],
            expiration: "60000", timestamp: 1_700_000_000, type: "push", appID: "apns-worker-tests"
        )
        let message = AMQPMessage(body: Array("{\"aps\":{}}".utf8) + [0, 255], properties: properties)
        #expect(try await client.publish(exchange: "", routingKey: queue, message: message, mandatory: true) == .confirmed)
        #expect(client.unconfirmedCount == 0)

        let inbox = DeliveryInbox(try await client.consume(queue: queue, prefetch: 10))
        let deliveries = await inbox.take(1)
        try #require(deliveries.count == 1)
        #expect(deliveries[0].message == message)
        #expect(deliveries[0].routingKey == queue && deliveries[0].exchange == "" && !deliveries[0].redelivered)
        #expect(deliveries[0].generation == 1)
        await client.ack(deliveries[0])
        try await client.deleteQueue(queue)
        await client.close()
    }

    @Test("a mandatory publish nobody routes comes back as 312 NO_ROUTE, matched to the right publish")
    func returned() async throws {
        let client = try await TestBroker.connectedClient()
        let exchange = TestBroker.uniqueName("unbound")
        let queue = TestBroker.uniqueName("routed")
        try await client.declare(
            exchanges: [AMQPExchangeDeclaration(name: exchange, type: .direct, durable: false)],
            queues: [TestBroker.queue(queue)],
            bindings: [AMQPBindingDeclaration(queue: queue, exchange: exchange, routingKey: "routed")]
        )
        let keys = (0..<40).map { $0 % 3 == 0 ? "routed" : "lost-\($0)" }
        let outcomes = try await withThrowingTaskGroup(of: (String, AMQPPublishOutcome).self) { group in
            for key in keys {
                group.addTask { (key, try await client.publish(exchange: exchange, routingKey: key, message: .text(key), mandatory: true)) }
            }
            return try await group.reduce(into: [:]) { $0[$1.0, default: []].append($1.1) }
        }
        #expect(outcomes["routed"]?.allSatisfy { $0 == .confirmed } == true)
        #expect(outcomes["routed"]?.count == keys.filter { $0 == "routed" }.count)
        for key in keys where key != "routed" {
            #expect(outcomes[key] == [.returned(replyCode: 312, replyText: "NO_ROUTE")], "\(key)")
        }
        let notMandatory = try await client.publish(exchange: exchange, routingKey: "lost", message: .text("dropped"), mandatory: false)
        #expect(notMandatory == .confirmed)
        try await client.deleteQueue(queue)
        try await client.deleteExchange(exchange)
        await client.close()
    }

    @Test("a full quorum queue with reject-publish nacks further messages")
    func nacked() async throws {
        let client = try await TestBroker.connectedClient()
        let queue = TestBroker.uniqueName("full")
        try await client.declare(queues: [TestBroker.queue(queue, quorum: true, arguments: ["x-max-length": .int(1), "x-overflow": "reject-publish"])])
        // A quorum queue (3.10) starts rejecting once it is *over* the limit, so it takes one extra message.
        var outcomes: [AMQPPublishOutcome] = []
        for index in 0..<4 {
            outcomes.append(try await client.publish(exchange: "", routingKey: queue, message: .text("\(index)"), mandatory: true))
        }
        #expect(outcomes.first == .confirmed)
        #expect(outcomes.suffix(2) == [.nacked, .nacked], "\(outcomes)")
        try await client.deleteQueue(queue)
        await client.close()
    }

    @Test("5,000 publishes in flight are all confirmed (the broker acks with multiple)")
    func manyInFlight() async throws {
        let client = try await TestBroker.connectedClient()
        let queue = TestBroker.uniqueName("many")
        try await client.declare(queues: [TestBroker.queue(queue)])
        let count = 5_000
        // How many overlap depends on the machine's load (sampling it made this test flaky); that every
        // one of 5,000 concurrent publishes resolves, exactly once, is what matters.
        let confirmed = try await withThrowingTaskGroup(of: AMQPPublishOutcome.self) { group in
            for index in 0..<count {
                group.addTask { try await client.publish(exchange: "", routingKey: queue, message: .text("\(index)"), mandatory: false) }
            }
            var confirmed = 0
            for try await outcome in group where outcome == .confirmed { confirmed += 1 }
            return confirmed
        }
        #expect(confirmed == count)
        #expect(client.unconfirmedCount == 0)
        try await client.deleteQueue(queue)
        await client.close()
    }

    @Test("publishing to a missing exchange: the broker closes the channel, the publish's outcome is unknown, the client recovers")
    func channelClosedByBroker() async throws {
        let client = try await TestBroker.connectedClient()
        let error = await #expect(throws: AMQPError.self) {
            try await client.publish(exchange: TestBroker.uniqueName("missing"), routingKey: "k", message: .text("x"), mandatory: true)
        }
        #expect(error?.code == .connectionLost)
        #expect(error?.message.contains("404") == true || error?.message.contains("NOT_FOUND") == true)
        let queue = TestBroker.uniqueName("after-404")
        try await retryingWhileReconnecting { try await client.declare(queues: [TestBroker.queue(queue)]) }
        #expect(client.generation == 2)
        #expect(try await client.publish(exchange: "", routingKey: queue, message: .text("y"), mandatory: true) == .confirmed)
        try await client.deleteQueue(queue)
        await client.close()
    }
}
