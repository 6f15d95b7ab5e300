/// One message to publish with confirms.
struct PublishRequest: Sendable {
    var exchange: String
    var routingKey: String
    var message: AMQPMessage
    var mandatory: Bool
    /// Send only on this connection generation; nil for any.
    var generation: UInt64? = nil
}
