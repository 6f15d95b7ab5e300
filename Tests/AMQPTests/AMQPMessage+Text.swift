import AMQP

extension AMQPMessage {
    /// A small text message.
    static func text(_ text: String, headers: [String: AMQPFieldValue] = [:]) -> AMQPMessage {
        AMQPMessage(body: Array(text.utf8), properties: AMQPProperties(headers: headers))
    }

    var text: String { String(decoding: body, as: UTF8.self) }
}
