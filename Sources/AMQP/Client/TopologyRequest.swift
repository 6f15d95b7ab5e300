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
}
