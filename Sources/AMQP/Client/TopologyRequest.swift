/// Declarations and the test helpers that delete or purge, all run on the topology channel.
enum TopologyRequest: Sendable {
    case declare(exchanges: [AMQPExchangeDeclaration], queues: [AMQPQueueDeclaration], bindings: [AMQPBindingDeclaration])
    case unbind(AMQPBindingDeclaration)
    case checkQueue(String)
    case deleteQueue(String)
    case deleteExchange(String)
    case purgeQueue(String)

    var operation: String {
        switch self {
        case .declare: "declare topology"
        case .checkQueue(let name): "find queue \(name)"
        case .unbind(let binding): "unbind \(binding.destinationName) from \(binding.exchange)"
        case .deleteQueue(let name): "delete queue \(name)"
        case .deleteExchange(let name): "delete exchange \(name)"
        case .purgeQueue(let name): "purge queue \(name)"
        }
    }

    /// The methods to send, in order, each with what it does (for errors).
    var calls: [(method: OutboundMethod, operation: String)] {
        switch self {
        case .declare(let exchanges, let queues, let bindings):
            exchanges.map { (.exchangeDeclare($0), "declare exchange \($0.name)") }
                + queues.map { (.queueDeclare($0, passive: false), "declare queue \($0.name)") }
                + bindings.map { binding in
                    let operation = "bind \(binding.destinationType) \(binding.destinationName) to \(binding.exchange) with \"\(binding.routingKey)\""
                    return switch binding.destination {
                    case .queue(let queue): (.queueBind(queue: queue, exchange: binding.exchange, routingKey: binding.routingKey), operation)
                    case .exchange(let destination): (.exchangeBind(destination: destination, source: binding.exchange, routingKey: binding.routingKey), operation)
                    }
                }
        case .unbind(let binding):
            switch binding.destination {
            case .queue(let queue): [(.queueUnbind(queue: queue, exchange: binding.exchange, routingKey: binding.routingKey), operation)]
            case .exchange(let destination): [(.exchangeUnbind(destination: destination, source: binding.exchange, routingKey: binding.routingKey), operation)]
            }
        case .checkQueue(let name): [(.queueDeclare(AMQPQueueDeclaration(name: name), passive: true), operation)]
        case .deleteQueue(let name): [(.queueDelete(name: name), operation)]
        case .deleteExchange(let name): [(.exchangeDelete(name: name), operation)]
        case .purgeQueue(let name): [(.queuePurge(name: name), operation)]
        }
    }
}
