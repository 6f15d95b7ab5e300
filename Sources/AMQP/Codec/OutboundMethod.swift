/// A method frame this client sends, with its arguments as Swift values; rabbitmq-c encodes it (see
/// ``FrameEncoder``). `basic.publish` is not here: it travels with its content (``FrameEncoder/publish``).
enum OutboundMethod: Equatable {
    case connectionStartOk(clientProperties: [String: AMQPFieldValue], mechanism: String, response: [UInt8], locale: String)
    case connectionTuneOk(channelMax: UInt16, frameMax: UInt32, heartbeat: UInt16)
    case connectionOpen(virtualHost: String)
    case connectionClose(replyCode: UInt16, replyText: String)
    case connectionCloseOk
    case channelOpen
    case channelFlowOk(active: Bool)
    case channelClose(replyCode: UInt16, replyText: String)
    case channelCloseOk
    case confirmSelect
    case exchangeDeclare(AMQPExchangeDeclaration)
    case exchangeDelete(name: String)
    case exchangeBind(destination: String, source: String, routingKey: String)
    case exchangeUnbind(destination: String, source: String, routingKey: String)
    case queueDeclare(AMQPQueueDeclaration, passive: Bool)
    case queueBind(queue: String, exchange: String, routingKey: String)
    case queueUnbind(queue: String, exchange: String, routingKey: String)
    case queuePurge(name: String)
    case queueDelete(name: String)
    /// A per-consumer limit (`global` false): quorum queues refuse a global one.
    case basicQos(prefetchCount: UInt16)
    /// Manual acks, a broker-assigned tag.
    case basicConsume(queue: String)
    case basicCancel(consumerTag: String)
    case basicAck(deliveryTag: UInt64, multiple: Bool)
    case basicReject(deliveryTag: UInt64, requeue: Bool)

    /// The reply a broker sends to this method, when it waits for one (`nowait` is never set).
    var reply: UInt32? {
        switch self {
        case .connectionStartOk, .connectionTuneOk, .connectionCloseOk, .channelFlowOk, .channelCloseOk, .basicAck, .basicReject: nil
        case .connectionOpen: MethodID.connectionOpenOk
        case .connectionClose: MethodID.connectionCloseOk
        case .channelOpen: MethodID.channelOpenOk
        case .channelClose: MethodID.channelCloseOk
        case .confirmSelect: MethodID.confirmSelectOk
        case .exchangeDeclare: MethodID.exchangeDeclareOk
        case .exchangeDelete: MethodID.exchangeDeleteOk
        case .exchangeBind: MethodID.exchangeBindOk
        case .exchangeUnbind: MethodID.exchangeUnbindOk
        case .queueDeclare: MethodID.queueDeclareOk
        case .queueBind: MethodID.queueBindOk
        case .queueUnbind: MethodID.queueUnbindOk
        case .queuePurge: MethodID.queuePurgeOk
        case .queueDelete: MethodID.queueDeleteOk
        case .basicQos: MethodID.basicQosOk
        case .basicConsume: MethodID.basicConsumeOk
        case .basicCancel: MethodID.basicCancelOk
        }
    }
}

extension OutboundMethod {
    /// Why rabbitmq-c could not encode this method's names (AMQP short strings hold 255 bytes), or nil:
    /// checked before a call, so a caller's bad name fails alone instead of the connection.
    var encodingProblem: String? {
        let names: [String] = switch self {
        case .exchangeDeclare(let exchange): [exchange.name, exchange.type.rawValue]
        case .exchangeDelete(let name), .queuePurge(let name), .queueDelete(let name), .basicConsume(let name), .basicCancel(let name): [name]
        case .exchangeBind(let destination, let source, let key), .exchangeUnbind(let destination, let source, let key): [destination, source, key]
        case .queueBind(let queue, let exchange, let key), .queueUnbind(let queue, let exchange, let key): [queue, exchange, key]
        case .queueDeclare(let queue, _): [queue.name] + Array(queue.arguments.keys)
        default: []
        }
        guard let long = names.first(where: { $0.utf8.count > EncodingCheck.shortStringLimit }) else { return nil }
        return "\"\(long.prefix(64))…\" has \(long.utf8.count) bytes; an AMQP short string holds at most \(EncodingCheck.shortStringLimit)"
    }
}

