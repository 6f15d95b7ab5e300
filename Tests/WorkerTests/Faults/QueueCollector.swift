import AMQP
import APNsCore
import Foundation
import MockAPNs
import TestSupport
import Worker
import WorkerConfiguration
import NIOConcurrencyHelpers

/// Consumes one queue for a whole scenario and keeps every message, acking as it goes.
///
/// Its client reconnects by itself (quickly: the broker may be restarted under it) and starts its
/// consumer again if the queue disappears and comes back. A message the broker hands out again because
/// an ack was lost with a connection (`redelivered`, same bytes as one already kept) is counted once:
/// the worker's real duplicates differ, since each result carries its own `completed_at`. The same
/// bytes means the body and the headers as published: a quorum queue adds `x-delivery-count` to what it
/// hands out again, and counting that header made the results a 3.10 stop took acks for and handed
/// back (834 in one `broker-restart` run) look like the worker's duplicates.
final class QueueCollector: Sendable {
    let queue: String
    private let client: AMQPClient
    private let state = NIOLockedValueBox<(messages: [AMQPMessage], seen: Set<[UInt8]>, redeliveries: Int, lastArrival: ContinuousClock.Instant)>(([], [], 0, .now))
    private let reader = NIOLockedValueBox<Task<Void, Never>?>(nil)

    private init(queue: String, client: AMQPClient) {
        self.queue = queue
        self.client = client
    }

    /// Starts consuming `queue` (which must exist) on a connection named `name`.
    static func start(_ harness: WorkerHarness, queue: String, name: String) async throws -> QueueCollector {
        var options = try harness.harnessClientOptions()
        options.connectionName = name
        options.initialReconnectDelay = .milliseconds(100)
        options.maximumReconnectDelay = .seconds(1)
        let client = AMQPClient(options: options, logger: WorkerHarness.quietLogger(name))
        try await client.connect()
        let deliveries = try await client.consume(queue: queue, prefetch: 1000)
        let collector = QueueCollector(queue: queue, client: client)
        let task = Task {
            for await delivery in deliveries {
                collector.keep(delivery)
                await client.ack(delivery)
            }
        }
        collector.reader.withLockedValue { $0 = task }
        return collector
    }

    var messages: [AMQPMessage] { state.withLockedValue { $0.messages } }
    var count: Int { state.withLockedValue { $0.messages.count } }
    /// Deliveries dropped as copies of one already kept.
    var redeliveries: Int { state.withLockedValue { $0.redeliveries } }
    /// How long nothing new arrived.
    var quietFor: Duration { ContinuousClock.now - state.withLockedValue { $0.lastArrival } }

    /// Waits until nothing arrived for `idle` (or `limit` passed).
    func settle(idle: Duration, limit: Duration = .seconds(30)) async {
        let deadline = ContinuousClock.now + limit
        while quietFor < idle, ContinuousClock.now < deadline {
            await pause(.milliseconds(50))
        }
    }

    /// Cancels the consumer and closes the connection; what was kept stays readable.
    func stop() async {
        // The cancel finishes the stream once confirmed; the reader acks what it holds and ends
        // (cancelling it could leave a kept message unacked, to be handed out again).
        await client.cancelConsuming()
        await reader.withLockedValue { $0 }?.value
        await client.close()
    }

    private func keep(_ delivery: AMQPDelivery) {
        let headers = delivery.message.properties.headers.filter { $0.key != "x-delivery-count" }.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }
        let key = delivery.message.body + Array(headers.joined(separator: "\n").utf8)
        state.withLockedValue { state in
            if delivery.redelivered, state.seen.contains(key) {
                state.redeliveries += 1
                return
            }
            state.seen.insert(key)
            state.messages.append(delivery.message)
            state.lastArrival = .now
        }
    }
}
