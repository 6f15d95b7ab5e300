import Synchronization
import Testing
import TestSupport
@testable import AMQP
import NIOConcurrencyHelpers

@Suite("AMQP client: reconnecting (real RabbitMQ)", .io)
struct AMQPReconnectTests {
    /// Waits until `client` reaches `generation`, for at most `timeout`.
    static func waitForGeneration(_ generation: UInt64, of client: AMQPClient, within timeout: Duration = .seconds(10)) async throws {
        try await Condition.wait("connection generation \(generation) (at \(client.generation))", timeout: timeout) { client.generation >= generation }
    }

    @Test("a connection closed by the broker: reconnect, consumer resumes, unacked redelivered, in-flight publishes fail, old acks dropped", .timeLimit(.minutes(2)))
    func forcedClose() async throws {
        let name = TestBroker.uniqueName("reconnect")
        var options = TestBroker.options(name: name)
        // A dead second node: the reconnect rotates to it first, fails, and comes back to the live one.
        options.endpoints.append(AMQPEndpoint(host: "127.0.0.1", port: 1))
        let client = try await TestBroker.connectedClient(options)
        let queue = TestBroker.uniqueName("jobs")
        let sink = TestBroker.uniqueName("sink")
        // Quorum-queue confirms wait for a Raft commit, which the broker abandons when it kills the channel:
        // publishes to the sink are reliably unconfirmed at the moment of the close.
        try await client.declare(queues: [TestBroker.queue(queue, quorum: true), TestBroker.queue(sink, quorum: true)])
        try await AMQPConsumeTests.fill(client, queue, ["a", "b", "c"])
        let inbox = DeliveryInbox(try await client.consume(queue: queue, prefetch: 10))
        let old = await inbox.take(3)
        try #require(old.map(\.message.text) == ["a", "b", "c"])
        #expect(old.allSatisfy { $0.generation == 1 && !$0.redelivered })

        // Keep publishes in flight while the broker kills the connection.
        let load = PublishLoad()
        let publishers = Task {
            await withTaskGroup(of: Void.self) { group in
                for _ in 0..<20 {
                    group.addTask {
                        while !load.stop.load(ordering: .relaxed) {
                            do {
                                _ = try await client.publish(exchange: "", routingKey: sink, message: AMQPMessage(body: [UInt8](repeating: 1, count: 32_768)), mandatory: false)
                            } catch let error as AMQPError {
                                load.failures.withLockedValue { $0.append(error.code) }
                                try? await Task.sleep(for: .milliseconds(20))
                            } catch {}
                        }
                    }
                }
            }
        }
        // Close only once publishes are really awaiting confirms (a fixed sleep loses that race under load).
        try await Condition.wait("publishes awaiting confirms", interval: .milliseconds(1)) { client.unconfirmedCount > 0 }
        try await TestBroker.forceClose(connectionNamed: name)
        try await Self.waitForGeneration(2, of: client)
        load.stop.store(true, ordering: .relaxed)
        await publishers.value
        let codes = load.failures.withLockedValue { $0 }
        // Whether a publish is still awaiting its confirm at the instant the broker closes is a race
        // (rabbitmqctl takes about a second, the broker may settle every confirm before its close, and
        // the client may reconnect before the next publish), so the test requires only that every
        // failure says "not confirmed" (outcome unknown, or never sent) and that no publisher hung:
        // `publishers.value` above returned.
        #expect(codes.allSatisfy { $0 == .connectionLost || $0 == .notConnected }, "\(codes)")

        let redelivered = await inbox.take(3)
        #expect(redelivered.map(\.message.text).sorted() == ["a", "b", "c"])
        #expect(redelivered.allSatisfy { $0.generation == 2 && $0.redelivered })

        // The old tags are 1...3, as are the new ones: acking them on the new channel would ack the wrong
        // deliveries, and the later acks would then be unknown tags (a 406 that costs the channel).
        for delivery in old { await client.ack(delivery) }
        for delivery in redelivered { await client.ack(delivery) }
        #expect(try await client.publish(exchange: "", routingKey: sink, message: .text("sync"), mandatory: true) == .confirmed)
        #expect(client.generation == 2)
        #expect(await inbox.take(1, within: .milliseconds(300)).isEmpty)

        await client.cancelConsuming()
        try await client.deleteQueue(queue)
        try await client.deleteQueue(sink)
        await client.close()
    }

    @Test("heartbeats keep an idle connection open")
    func heartbeats() async throws {
        var options = TestBroker.options()
        options.heartbeatSeconds = 1
        let client = try await TestBroker.connectedClient(options)
        // The broker drops a peer that misses two heartbeats, i.e. after about 2 s of silence.
        try await Task.sleep(for: .seconds(3))
        #expect(client.generation == 1)
        let queue = TestBroker.uniqueName("heartbeat")
        try await client.declare(queues: [TestBroker.queue(queue)])
        try await client.deleteQueue(queue)
        await client.close()
    }
}
