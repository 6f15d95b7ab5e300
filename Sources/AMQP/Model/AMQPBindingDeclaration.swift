/// Routes messages published to `exchange` with `routingKey` into `queue` (`queue.bind`).
public struct AMQPBindingDeclaration: Sendable, Hashable {
    public var queue: String
    public var exchange: String
    public var routingKey: String

    /// Binds `queue` to `exchange` for `routingKey`.
    public init(queue: String, exchange: String, routingKey: String) {
        self.queue = queue
        self.exchange = exchange
        self.routingKey = routingKey
    }
}
