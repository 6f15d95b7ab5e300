public import AMQP

/// One message the worker must get confirmed before it may ack a job.
///
/// A class, immutable: a publication is handed from the job to the publisher, its batch and the
/// outcomes remembered for redeliveries, and as a struct each of those copies retained its body, its
/// properties' strings and its route (about a dozen reference counts a copy).
public final class Publication: Sendable {
    /// What the message is, for metrics.
    public enum Kind: Sendable, Hashable {
        /// `credential` is the one the worker chose (nil for a job that never had one: malformed, unknown).
        case result(status: String, reason: String?, credential: String?)
        case retry(tier: String)
        /// `reason` is the failure code at the front of the `last-error` header.
        case deadLetter(reason: String)
    }

    /// Where a message goes.
    public struct Route: Sendable, Hashable {
        public let exchange: String
        public let routingKey: String
    }

    public let exchange: String
    public let routingKey: String
    public let message: AMQPMessage
    public let kind: Kind
    /// Where to send the message instead if the broker returns it: a result for a `reply_to` queue
    /// that no longer exists goes to the results exchange rather than requeueing (and re-sending) the job.
    public let fallback: Route?

    /// What one publication object takes on the heap: the object header and its stored properties
    /// (their own buffers are counted by whoever weighs them, as `AnsweredOutcomes` does).
    static let instanceBytes = 16 + 2 * MemoryLayout<String>.stride + MemoryLayout<AMQPMessage>.stride
        + MemoryLayout<Kind>.stride + MemoryLayout<Route?>.stride

    public init(exchange: String, routingKey: String, message: AMQPMessage, kind: Kind, fallback: Route? = nil) {
        self.exchange = exchange
        self.routingKey = routingKey
        self.message = message
        self.kind = kind
        self.fallback = fallback
    }
}
