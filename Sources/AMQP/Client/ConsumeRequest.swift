/// A consumer to start, and where its deliveries go.
struct ConsumeRequest: Sendable {
    var queues: [AMQPConsumedQueue]
    var sink: DeliverySink
}
