/// What a passive `queue.declare` reports of a queue: its ready messages (unacknowledged deliveries
/// are not counted) and its consumers.
public struct AMQPQueueCounts: Sendable, Equatable {
    public let messages: Int
    public let consumers: Int

    public init(messages: Int, consumers: Int) {
        self.messages = messages
        self.consumers = consumers
    }
}
