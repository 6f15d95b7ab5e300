/// A queue to create if it is missing (`queue.declare`).
public struct AMQPQueueDeclaration: Sendable, Hashable {
    /// The queue name; must not be empty (server-named queues are not supported).
    public var name: String
    /// Survives a broker restart; quorum queues must be durable.
    public var durable: Bool
    /// Queue arguments such as `x-queue-type`, `x-delivery-limit`, `x-dead-letter-exchange`. Re-declaring a
    /// queue with different arguments fails with 406 PRECONDITION_FAILED.
    public var arguments: [String: AMQPFieldValue]

    /// A durable queue without arguments unless told otherwise.
    public init(name: String, durable: Bool = true, arguments: [String: AMQPFieldValue] = [:]) {
        self.name = name
        self.durable = durable
        self.arguments = arguments
    }
}
