public import AMQP

/// One message the worker must get confirmed before it may ack a job.
public struct Publication: Sendable {
    public let exchange: String
    public let routingKey: String
    public let message: AMQPMessage

    public init(exchange: String, routingKey: String, message: AMQPMessage) {
        self.exchange = exchange
        self.routingKey = routingKey
        self.message = message
    }
}
