import NIOConcurrencyHelpers
import Testing
import TestSupport
@testable import AMQP

@Suite("AMQP client: consuming (real RabbitMQ)", .io)
struct AMQPConsumeTests {
    /// Publishes `texts` to `queue` through the default exchange, each confirmed.
    static func fill(_ client: AMQPClient, _ queue: String, _ texts: [String]) async throws {
        for text in texts {
            #expect(try await client.publish(exchange: "", routingKey: queue, message: .text(text), mandatory: true) == .confirmed)
        }
    }

    @Test("with prefetch N and no acks exactly N deliveries arrive; each ack lets one more through")
    func prefetch() async throws {
        let client = try await TestBroker.connectedClient()
        let queue = TestBroker.uniqueName("prefetch")
        try await client.declare(queues: [TestBroker.queue(queue)])
        try await Self.fill(client, queue, (0..<10).map { "m\($0)" })
        let inbox = DeliveryInbox(try await client.consume(queue: queue, prefetch: 3))
        let first = await inbox.take(3)
        try #require(first.count == 3)
        #expect(await inbox.take(1, within: .milliseconds(300)).isEmpty, "a fourth delivery beyond the prefetch")
        await client.ack(first[0])
        let next = await inbox.take(1)
        #expect(next.count == 1)
        #expect(await inbox.take(1, within: .milliseconds(300)).isEmpty, "only one more per ack")
        #expect((first + next).map(\.message.text) == ["m0", "m1", "m2", "m3"])
        await client.cancelConsuming()
        try await client.deleteQueue(queue)
        await client.close()
    }

    @Test("two queues, each with its own prefetch: one queue's unacked deliveries never hold back the other's; each delivery names its queue")
    func prefetchPerQueue() async throws {
        let client = try await TestBroker.connectedClient()
        let bulk = TestBroker.uniqueName("bulk")
        let urgent = TestBroker.uniqueName("urgent")
        try await client.declare(queues: [TestBroker.queue(bulk, quorum: true), TestBroker.queue(urgent, quorum: true)])
        try await Self.fill(client, bulk, (0..<10).map { "b\($0)" })
        let inbox = DeliveryInbox(batches: try await client.consumeBatches([
            AMQPConsumedQueue(name: bulk, prefetch: 4), AMQPConsumedQueue(name: urgent, prefetch: 2),
        ]))
        let held = await inbox.take(4)
        try #require(held.count == 4)
        #expect(held.allSatisfy { $0.queue == bulk })
        #expect(await inbox.take(1, within: .milliseconds(300)).isEmpty, "bulk's window is full")
        try await Self.fill(client, urgent, ["u0", "u1", "u2"])
        let urgentOnes = await inbox.take(2)
        #expect(urgentOnes.map(\.message.text) == ["u0", "u1"], "urgent's own window, while bulk's stays full")
        #expect(urgentOnes.allSatisfy { $0.queue == urgent })
        #expect(await inbox.take(1, within: .milliseconds(300)).isEmpty, "urgent's window is full too")
        await client.ack(urgentOnes[0])
        let next = await inbox.take(1)
        #expect(next.map(\.message.text) == ["u2"], "an urgent ack frees an urgent place, not a bulk one")
        await client.cancelConsuming()
        try await client.deleteQueue(bulk)
        try await client.deleteQueue(urgent)
        await client.close()
    }

    @Test("a queue's counts: its ready messages and its consumers, as another client sees them")
    func queueCounts() async throws {
        let client = try await TestBroker.connectedClient()
        let observer = try await TestBroker.connectedClient()
        let queue = TestBroker.uniqueName("counts")
        try await client.declare(queues: [TestBroker.queue(queue, quorum: true)])
        try await Self.fill(client, queue, ["a", "b", "c"])
        #expect(try await observer.counts(ofQueue: queue) == AMQPQueueCounts(messages: 3, consumers: 0))
        let inbox = DeliveryInbox(try await client.consume(queue: queue, prefetch: 1))
        #expect(await inbox.take(1).count == 1)
        try await Condition.wait("the broker counts the consumer", asking: { try await observer.counts(ofQueue: queue).consumers == 1 })
        #expect(try await observer.counts(ofQueue: queue).messages == 2, "the unacked delivery is not ready")
        await client.cancelConsuming()
        try await client.deleteQueue(queue)
        await client.close()
        await observer.close()
    }

    @Test("ack removes; reject with requeue redelivers flagged as redelivered; reject without requeue dead-letters")
    func ackAndReject() async throws {
        let client = try await TestBroker.connectedClient()
        let queue = TestBroker.uniqueName("settle")
        let dead = TestBroker.uniqueName("dead")
        try await client.declare(queues: [
            TestBroker.queue(dead),
            TestBroker.queue(queue, quorum: true, arguments: ["x-dead-letter-exchange": "", "x-dead-letter-routing-key": .string(dead)]),
        ])
        try await Self.fill(client, queue, ["ack", "requeue", "drop"])
        let inbox = DeliveryInbox(try await client.consume(queue: queue, prefetch: 10))
        let first = await inbox.take(3)
        try #require(first.map(\.message.text) == ["ack", "requeue", "drop"])
        #expect(first.allSatisfy { !$0.redelivered })
        await client.ack(first[0])
        await client.reject(first[1], requeue: true)
        await client.reject(first[2], requeue: false)
        let again = await inbox.take(1)
        #expect(again.map(\.message.text) == ["requeue"])
        #expect(again.first?.redelivered == true)
        if let again = again.first { await client.ack(again) }
        #expect(await inbox.take(1, within: .milliseconds(300)).isEmpty, "acked and rejected messages must not come back")
        await client.cancelConsuming()

        let deadInbox = DeliveryInbox(try await client.consume(queue: dead, prefetch: 10))
        let deadLettered = await deadInbox.take(1)
        #expect(deadLettered.map(\.message.text) == ["drop"])
        #expect(await deadInbox.take(1, within: .milliseconds(200)).isEmpty)
        for delivery in deadLettered { await client.ack(delivery) }
        await client.cancelConsuming()
        try await client.deleteQueue(queue)
        try await client.deleteQueue(dead)
        await client.close()
    }

    @Test("cancelConsuming stops deliveries and finishes the stream; earlier deliveries can still be acked")
    func cancel() async throws {
        let client = try await TestBroker.connectedClient()
        let queue = TestBroker.uniqueName("cancel")
        try await client.declare(queues: [TestBroker.queue(queue)])
        try await Self.fill(client, queue, ["before"])
        let inbox = DeliveryInbox(try await client.consume(queue: queue, prefetch: 10))
        let before = await inbox.take(1)
        #expect(before.count == 1)
        await client.cancelConsuming()
        #expect(await inbox.finished())
        try await Self.fill(client, queue, ["after"])
        #expect(await inbox.take(1, within: .milliseconds(300)).isEmpty)
        for delivery in before { await client.ack(delivery) }

        // The consumer can start again; only "after" is left, since "before" was acked.
        let second = DeliveryInbox(try await client.consume(queue: queue, prefetch: 10))
        let left = await second.take(1)
        #expect(left.map(\.message.text) == ["after"])
        #expect(await second.take(1, within: .milliseconds(300)).isEmpty)
        #expect(client.generation == 1)
        await client.cancelConsuming()
        try await client.deleteQueue(queue)
        await client.close()
    }

    @Test("close() finishes the stream")
    func closeFinishesStream() async throws {
        let client = try await TestBroker.connectedClient()
        let queue = TestBroker.uniqueName("close")
        try await client.declare(queues: [TestBroker.queue(queue)])
        let inbox = DeliveryInbox(try await client.consume(queue: queue, prefetch: 1))
        try await client.deleteQueue(queue)
        await client.close()
        #expect(await inbox.finished())
    }

    @Test("consuming a missing queue is a 404 that leaves the client usable; a second consumer is refused")
    func missingQueueAndSecondConsumer() async throws {
        let client = try await TestBroker.connectedClient()
        let missing = await #expect(throws: AMQPError.self) { _ = try await client.consume(queue: TestBroker.uniqueName("missing"), prefetch: 1) }
        #expect(missing?.code == .brokerClosed(replyCode: 404))
        let queue = TestBroker.uniqueName("single")
        try await client.declare(queues: [TestBroker.queue(queue)])
        _ = try await client.consume(queue: queue, prefetch: 1)
        let second = await #expect(throws: AMQPError.self) { _ = try await client.consume(queue: queue, prefetch: 1) }
        #expect(second?.code == .invalidArgument)
        #expect(client.generation == 1)
        await client.cancelConsuming()
        try await client.deleteQueue(queue)
        await client.close()
    }

    @Test("a consumer the broker cancels (its queue was deleted) starts again once the queue is back")
    func brokerCancel() async throws {
        let client = try await TestBroker.connectedClient()
        let queue = TestBroker.uniqueName("recreated")
        try await client.declare(queues: [TestBroker.queue(queue)])
        let inbox = DeliveryInbox(try await client.consume(queue: queue, prefetch: 5))
        try await client.deleteQueue(queue)
        try await Condition.wait("the broker's cancel of the consumer") { !client.isConsuming }
        try await client.declare(queues: [TestBroker.queue(queue)])
        try await Self.fill(client, queue, ["back"])
        let deliveries = await inbox.take(1, within: .seconds(5))
        #expect(deliveries.map(\.message.text) == ["back"])
        #expect(client.generation == 1, "a consumer cancel costs no reconnect")
        for delivery in deliveries { await client.ack(delivery) }
        await client.cancelConsuming()
        try await client.deleteQueue(queue)
        await client.close()
    }

    @Test("close() waits for outstanding confirms; acks after close are no-ops")
    func closeWaitsForConfirms() async throws {
        let client = try await TestBroker.connectedClient()
        let queue = TestBroker.uniqueName("closing")
        try await client.declare(queues: [TestBroker.queue(queue, quorum: true)])
        try await Self.fill(client, queue, ["keep"])
        let inbox = DeliveryInbox(try await client.consume(queue: queue, prefetch: 1))
        let kept = await inbox.take(1)
        let settled = NIOLockedValueBox(0)
        let publishes = Task {
            await withTaskGroup(of: Result<AMQPPublishOutcome, any Error>.self) { group in
                for index in 0..<200 {
                    group.addTask {
                        defer { settled.withLockedValue { $0 += 1 } }
                        do {
                            return .success(try await client.publish(exchange: "", routingKey: queue, message: .text("\(index)"), mandatory: true))
                        } catch {
                            return .failure(error)
                        }
                    }
                }
                return await group.reduce(into: [Result<AMQPPublishOutcome, any Error>]()) { $0.append($1) }
            }
        }
        // Close while publishes await their confirms; on a quick broker all 200 may be confirmed before
        // a poll sees one waiting, and then the close simply finds none.
        try await Condition.wait("a publish awaiting its confirm, or every publish settled", timeout: .seconds(5), interval: .milliseconds(1)) {
            client.unconfirmedCount > 0 || settled.withLockedValue { $0 } == 200
        }
        await client.close()
        let outcomes = await publishes.value
        // Every publish sent before close() was confirmed; one that came after it was refused
        // outright (nothing sent), never left with an unknown outcome.
        let confirmed = outcomes.filter { if case .success(.confirmed) = $0 { true } else { false } }.count
        let refused = outcomes.filter { if case .failure(let error) = $0 { (error as? AMQPError)?.code == .notConnected } else { false } }.count
        #expect(confirmed > 0)
        #expect(confirmed + refused == 200, "\(outcomes.filter { if case .success(.confirmed) = $0 { false } else { true } })")
        for delivery in kept { await client.ack(delivery) }
        #expect(await inbox.finished())

        let cleanup = try await TestBroker.connectedClient()
        try await cleanup.deleteQueue(queue)
        await cleanup.close()
    }
}
