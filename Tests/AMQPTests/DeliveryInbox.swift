import AMQP
import NIOConcurrencyHelpers

/// Collects a delivery stream in the background so tests can wait for "N deliveries within T".
final class DeliveryInbox: Sendable {
    private struct State {
        var received: [AMQPDelivery] = []
        var taken = 0
        var finished = false
    }

    private let state = NIOLockedValueBox(State())

    init(_ stream: AsyncStream<AMQPDelivery>) {
        Task {
            for await delivery in stream {
                self.state.withLockedValue { $0.received.append(delivery) }
            }
            self.state.withLockedValue { $0.finished = true }
        }
    }

    /// The deliveries of a batched consumer, in order.
    init(batches stream: AsyncStream<[AMQPDelivery]>) {
        Task {
            for await batch in stream {
                self.state.withLockedValue { $0.received += batch }
            }
            self.state.withLockedValue { $0.finished = true }
        }
    }

    /// Waits until `count` deliveries not yet taken have arrived (or `timeout` passed) and takes them all.
    ///
    /// The default is long because it is only reached when a delivery is late: a quorum queue hands
    /// out the next message once the ack it waits for is committed through its Raft log, and under
    /// the whole suite's load on two cores that once took more than 5 s (the CI of f27cabd, on
    /// RabbitMQ 3.10: `prefetchPerQueue` saw nothing 5 s after its ack). Checks that nothing comes
    /// pass a short `within`.
    func take(_ count: Int, within timeout: Duration = .seconds(30)) async -> [AMQPDelivery] {
        _ = await wait(until: timeout) { $0.received.count - $0.taken >= count }
        return state.withLockedValue { state in
            defer { state.taken = state.received.count }
            return Array(state.received[state.taken...])
        }
    }

    /// Whether the stream finished within `timeout`.
    func finished(within timeout: Duration = .seconds(5)) async -> Bool {
        await wait(until: timeout) { $0.finished }
    }

    private func wait(until timeout: Duration, _ condition: (State) -> Bool) async -> Bool {
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline {
            if state.withLockedValue({ condition($0) }) { return true }
            try? await Task.sleep(for: .milliseconds(10))
        }
        return state.withLockedValue { condition($0) }
    }
}
