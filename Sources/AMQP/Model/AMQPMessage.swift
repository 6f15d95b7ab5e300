/// A message body with its properties, as published or delivered.
public struct AMQPMessage: Sendable, Hashable {
    /// The payload, opaque to AMQP.
    public var body: [UInt8]
    public var properties: AMQPProperties

    /// A message with default (transient, header-less) properties unless given.
    public init(body: [UInt8], properties: AMQPProperties = AMQPProperties()) {
        self.body = body
        self.properties = properties
    }
}
