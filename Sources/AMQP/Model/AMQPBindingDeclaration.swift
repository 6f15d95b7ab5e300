/// Routes messages published to `exchange` with `routingKey` into a queue (`queue.bind`) or into
/// another exchange (`exchange.bind`, RabbitMQ's exchange-to-exchange bindings).
public struct AMQPBindingDeclaration: Sendable, Hashable {
    /// Where a binding's messages go.
    public enum Destination: Sendable, Hashable {
        case queue(String)
        case exchange(String)
    }

    public var destination: Destination
    /// The source: the exchange messages are published to.
    public var exchange: String
    public var routingKey: String

    /// Binds `queue` to `exchange` for `routingKey`.
    public init(queue: String, exchange: String, routingKey: String) {
        self.init(destination: .queue(queue), exchange: exchange, routingKey: routingKey)
    }

    /// Binds `destination` to `exchange` for `routingKey`.
    public init(destination: Destination, exchange: String, routingKey: String) {
        self.destination = destination
        self.exchange = exchange
        self.routingKey = routingKey
    }

    /// The destination's name, queue or exchange.
    public var destinationName: String {
        switch destination {
        case .queue(let name), .exchange(let name): name
        }
    }

    /// `queue` or `exchange`, as RabbitMQ's definitions call the destination's type.
    public var destinationType: String {
        switch destination {
        case .queue: "queue"
        case .exchange: "exchange"
        }
    }
}
