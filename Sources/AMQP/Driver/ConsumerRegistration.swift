/// The one consumer a client runs: what to consume, and where deliveries go. It outlives connections: after
/// a reconnect the driver starts it again with the same stream.
struct ConsumerRegistration {
    var queue: String
    var prefetch: UInt16
    /// Deliveries of every generation go here. Unbounded buffering is bounded in practice by `prefetch`:
    /// the broker sends no more than that many unacknowledged deliveries per channel.
    var stream: AsyncStream<AMQPDelivery>.Continuation
    /// The broker's tag while the consumer runs on the current channel; nil while it needs (re)starting.
    var consumerTag: String?
}
