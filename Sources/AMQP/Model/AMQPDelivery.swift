/// A message the broker delivered to this client's consumer, to be acked or rejected exactly once.
///
/// A class, immutable: a delivery is copied into the intake, the job's context, its pending send, its
/// result and the closures that settle it, and a copy of a struct with these fields (the body, nine
/// optional properties, the header table and three strings) took a dozen reference-count operations
/// each time, about a tenth of the worker's retains and releases under full load (`perf` under
/// `apns-bench profile`). A reference costs one.
public final class AMQPDelivery: Sendable {
    /// Body and properties, copied out of rabbitmq-c (the publish sequence header removed).
    public let message: AMQPMessage
    /// Meaningful only on the channel that delivered it, i.e. within ``generation``.
    public let deliveryTag: UInt64
    /// The broker delivered this message before (to this or another consumer) without an ack.
    public let redelivered: Bool
    /// The exchange it was published to (`""` for the default exchange).
    public let exchange: String
    /// The routing key it was published with.
    public let routingKey: String
    /// The queue it came from (one of those the consumer takes from).
    public let queue: String
    /// The connection generation that delivered it: acks and rejects from an older generation are dropped,
    /// since the broker has already requeued the message.
    public let generation: UInt64

    /// For tests and fakes; the client builds deliveries from `basic.deliver`.
    public init(message: AMQPMessage, deliveryTag: UInt64, redelivered: Bool, exchange: String, routingKey: String, queue: String = "", generation: UInt64) {
        self.message = message
        self.deliveryTag = deliveryTag
        self.redelivered = redelivered
        self.exchange = exchange
        self.routingKey = routingKey
        self.queue = queue
        self.generation = generation
    }
}
