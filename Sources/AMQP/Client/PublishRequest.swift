/// One message to publish with confirms.
struct PublishRequest: Sendable {
    var exchange: String
    var routingKey: String
    var message: AMQPMessage
    var mandatory: Bool
}
