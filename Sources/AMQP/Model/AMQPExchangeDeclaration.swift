/// An exchange to create if it is missing (`exchange.declare`).
public struct AMQPExchangeDeclaration: Sendable, Hashable {
    /// The exchange name; names starting with `amq.` are reserved by the broker.
    public var name: String
    public var type: AMQPExchangeType
    /// Survives a broker restart.
    public var durable: Bool

    /// A durable exchange unless told otherwise.
    public init(name: String, type: AMQPExchangeType, durable: Bool = true) {
        self.name = name
        self.type = type
        self.durable = durable
    }
}
