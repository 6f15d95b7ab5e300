/// A frame from the broker, copied out of rabbitmq-c's buffers into Swift values.
///
/// Only what this client acts on is decoded; anything else arrives as ``Payload/other(methodID:)``.
struct InboundFrame: Equatable {
    enum Payload: Equatable {
        case deliver(DeliverInfo)
        case returned(ReturnInfo)
        case ack(deliveryTag: UInt64, multiple: Bool)
        case nack(deliveryTag: UInt64, multiple: Bool)
        /// The broker cancelled a consumer (its queue was deleted, or it became unavailable).
        case cancel(consumerTag: String)
        case channelClose(replyCode: UInt16, replyText: String)
        case connectionClose(replyCode: UInt16, replyText: String)
        case blocked(reason: String)
        case unblocked
        case header(AMQPProperties, bodySize: UInt64)
        case body([UInt8])
        case other(methodID: UInt32)
    }

    var channel: UInt16
    var payload: Payload
}

extension InboundFrame.Payload {
    /// What kind of frame this is, for logs: never message content.
    var summary: String {
        switch self {
        case .header(_, let size): "content header (\(size) bytes)"
        case .body(let bytes): "content body (\(bytes.count) bytes)"
        case .other(let id): "method 0x\(String(id, radix: 16))"
        default: "\(self)"
        }
    }
}
