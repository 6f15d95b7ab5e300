/// A consumer to start, and where its deliveries go.
struct ConsumeRequest: Sendable {
    var queues: [String]
    var prefetch: UInt16
    var sink: DeliverySink
}
