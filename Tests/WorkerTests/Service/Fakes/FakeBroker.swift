import AMQP
import NIOConcurrencyHelpers
@testable import Worker

/// A ``JobBroker`` that records what the processor does and answers publishes as a test says: the
/// broker's side of the redelivery / generation / unroutable matrix, without a broker.
final class FakeBroker: JobBroker, Sendable {
    struct Published: Sendable {
        let exchange: String
        let routingKey: String
        let message: AMQPMessage
    }

    private struct State {
        var generation: UInt64 = 1
        var published: [Published] = []
        var acked: [UInt64] = []
        var rejected: [(tag: UInt64, requeue: Bool)] = []
        var reopenRequests: [UInt64] = []
        var reopened: [UInt64] = []
        var serverVersion: RabbitMQVersion? = RabbitMQVersion(3, 10, 8)
    }

    private let state = NIOLockedValueBox(State())
    /// How the broker answers a publish (confirmed, unless the test says otherwise).
    let answer: @Sendable (Published) -> Result<AMQPPublishOutcome, AMQPError>

    init(answer: @escaping @Sendable (Published) -> Result<AMQPPublishOutcome, AMQPError> = { _ in .success(.confirmed) }) {
        self.answer = answer
    }

    var generation: UInt64 { state.withLockedValue { $0.generation } }
    /// The release the fake claims to be: 3.10, whose stale-leader nacks the reopen works around.
    var serverVersion: RabbitMQVersion? {
        get { state.withLockedValue { $0.serverVersion } }
        set { state.withLockedValue { $0.serverVersion = newValue } }
    }
    var published: [Published] { state.withLockedValue { $0.published } }
    var acked: [UInt64] { state.withLockedValue { $0.acked } }
    var rejected: [(tag: UInt64, requeue: Bool)] { state.withLockedValue { $0.rejected } }
    /// The generations a reopen was asked for, current or not.
    var reopenRequests: [UInt64] { state.withLockedValue { $0.reopenRequests } }
    /// The generations a reopen was asked for while they were current.
    var reopened: [UInt64] { state.withLockedValue { $0.reopened } }

    /// A reconnect: deliveries of the old generation were requeued by the broker.
    func reconnect() {
        state.withLockedValue { $0.generation += 1 }
    }

    func publish(exchange: String, routingKey: String, message: AMQPMessage, mandatory: Bool, generation: UInt64?) async throws -> AMQPPublishOutcome {
        let publication = Published(exchange: exchange, routingKey: routingKey, message: message)
        // As the real client: a publish meant for a generation that is gone is not sent.
        if let generation, generation != self.generation {
            throw AMQPError(.notConnected, operation: "publish", message: "generation \(generation) is gone")
        }
        let outcome = answer(publication)
        if case .success = outcome { state.withLockedValue { $0.published.append(publication) } }
        return try outcome.get()
    }

    func publish(_ messages: [AMQPOutgoingMessage], thenAck delivery: AMQPDelivery, settled: @escaping @Sendable (AMQPBatchOutcome) -> Void) {
        Task { settled(await publish(messages, thenAck: delivery)) }
    }

    /// The batch's messages one by one, then its ack when all were confirmed, as the client does.
    private func publish(_ messages: [AMQPOutgoingMessage], thenAck delivery: AMQPDelivery) async -> AMQPBatchOutcome {
        var outcomes: [Result<AMQPPublishOutcome, AMQPError>] = []
        for outgoing in messages {
            do {
                outcomes.append(.success(try await publish(
                    exchange: outgoing.exchange, routingKey: outgoing.routingKey, message: outgoing.message, mandatory: outgoing.mandatory,
                    generation: delivery.generation
                )))
            } catch {
                outcomes.append(.failure(error as! AMQPError))
            }
        }
        let confirmed = outcomes.allSatisfy { $0 == .success(.confirmed) }
        if confirmed { await ack(delivery) }
        return AMQPBatchOutcome(outcomes: outcomes, acked: confirmed && delivery.generation == generation)
    }

    func ack(_ delivery: AMQPDelivery) async {
        state.withLockedValue { state in
            if delivery.generation == state.generation { state.acked.append(delivery.deliveryTag) }
        }
    }

    func reopen(ifGeneration generation: UInt64, because reason: String) async {
        state.withLockedValue { state in
            state.reopenRequests.append(generation)
            guard generation == state.generation else { return }
            state.reopened.append(generation)
            state.generation += 1
        }
    }

    func reject(_ delivery: AMQPDelivery, requeue: Bool) async {
        state.withLockedValue { state in
            if delivery.generation == state.generation { state.rejected.append((delivery.deliveryTag, requeue)) }
        }
    }
}
