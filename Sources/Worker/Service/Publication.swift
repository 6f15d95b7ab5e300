public import AMQP

/// One message the worker must get confirmed before it may ack a job.
public struct Publication: Sendable {
    /// What the message is, for metrics.
    public enum Kind: Sendable, Hashable {
        case result(status: String, reason: String?)
        case retry(tier: String)
        /// `reason` is the failure code at the front of the `last-error` header.
        case deadLetter(reason: String)
    }

    public let exchange: String
    public let routingKey: String
    public let message: AMQPMessage
    public let kind: Kind

    public init(exchange: String, routingKey: String, message: AMQPMessage, kind: Kind) {
        self.exchange = exchange
        self.routingKey = routingKey
        self.message = message
        self.kind = kind
    }
}
