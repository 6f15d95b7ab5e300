/// Messages published together for one delivery, which is acked once every one is confirmed.
struct PublishBatchRequest: Sendable {
    var messages: [AMQPOutgoingMessage]
    var deliveryTag: UInt64
    var generation: UInt64
}
