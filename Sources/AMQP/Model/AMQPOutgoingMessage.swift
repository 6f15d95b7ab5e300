/// One message to publish with confirms, and where to.
public struct AMQPOutgoingMessage: Sendable {
    public var exchange: String
    public var routingKey: String
    public var message: AMQPMessage
    /// Return the message if no queue takes it (``AMQPPublishOutcome/returned(replyCode:replyText:)``).
    public var mandatory: Bool

    public init(exchange: String, routingKey: String, message: AMQPMessage, mandatory: Bool = true) {
        self.exchange = exchange
        self.routingKey = routingKey
        self.message = message
        self.mandatory = mandatory
    }
}
