import NIOConcurrencyHelpers

/// Which of a worker's shards still have a consumer at the broker, so that a draining shard hands its
/// unstarted deliveries back only once none has.
///
/// Every shard of a worker consumes the same queues. A delivery one shard gives back while another
/// shard's consumer is still open goes straight to that consumer, which is draining too: it holds the
/// delivery until its own cancel is confirmed and gives it back again. The job then reaches the next
/// worker having been counted twice toward the queue's delivery limit (RabbitMQ 3.10 and 4.0 both
/// count each return), for a drain that pushed nothing. Other workers' consumers are another matter:
/// a job given back to them is taken and sent, as it should be.
final class OpenConsumers: Sendable {
    private struct State {
        /// The shards whose consumer may still be open.
        var open: Set<Int>
        /// Hand-backs waiting for the last consumer to go.
        var waiting: [@Sendable () -> Void] = []
    }

    /// A lock ThreadSanitizer can see (docs/decisions.md, "Locks ThreadSanitizer can see").
    private let state: NIOLockedValueBox<State>

    /// A worker of `shards` shards, each with a consumer open or about to be.
    init(shards: Int) {
        state = NIOLockedValueBox(State(open: Set(0..<shards)))
    }

    /// Shard `index` consumes no more (its cancel confirmed, its connection closed, or it never
    /// started). `handBack`, when given, runs once no shard consumes: at once if this was the last,
    /// else on the thread of the shard that goes last. Saying so again for the same shard changes
    /// nothing but adds its hand-back.
    func consumerGone(shard index: Int, then handBack: (@Sendable () -> Void)? = nil) {
        let due: [@Sendable () -> Void] = state.withLockedValue { state in
            state.open.remove(index)
            if let handBack { state.waiting.append(handBack) }
            guard state.open.isEmpty else { return [] }
            defer { state.waiting.removeAll() }
            return state.waiting
        }
        for handBack in due { handBack() }
    }
}
