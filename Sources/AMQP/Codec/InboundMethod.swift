/// A method frame from the broker, copied out of rabbitmq-c's decoding pool into Swift values.
///
/// Only what this client acts on is decoded into its arguments; any other method arrives as
/// ``other(_:)`` with its number.
enum InboundMethod: Equatable {
    case connectionStart(serverProperties: [String: AMQPFieldValue], mechanisms: [String])
    case connectionSecure
    case connectionTune(channelMax: UInt16, frameMax: UInt32, heartbeat: UInt16)
    case connectionOpenOk
    case connectionClose(BrokerClose)
    case connectionCloseOk
    case connectionBlocked(reason: String)
    case connectionUnblocked
    case channelOpenOk
    case channelFlow(active: Bool)
    case channelClose(BrokerClose)
    case channelCloseOk
    case queueDeclareOk(queue: String, messageCount: UInt32, consumerCount: UInt32)
    case basicConsumeOk(consumerTag: String)
    /// The broker cancelled a consumer (its queue was deleted, or it became unavailable).
    case basicCancel(consumerTag: String)
    case basicCancelOk(consumerTag: String)
    case basicDeliver(DeliverInfo)
    case basicReturn(ReturnInfo)
    case basicAck(deliveryTag: UInt64, multiple: Bool)
    case basicNack(deliveryTag: UInt64, multiple: Bool)
    /// A reply with no arguments worth keeping (declare-ok of an exchange, bind-ok, qos-ok, select-ok …).
    case other(UInt32)

    /// The method's number, to match a reply with the request that waits for it.
    var id: UInt32 {
        switch self {
        case .connectionStart: MethodID.connectionStart
        case .connectionSecure: MethodID.connectionSecure
        case .connectionTune: MethodID.connectionTune
        case .connectionOpenOk: MethodID.connectionOpenOk
        case .connectionClose: MethodID.connectionClose
        case .connectionCloseOk: MethodID.connectionCloseOk
        case .connectionBlocked: MethodID.connectionBlocked
        case .connectionUnblocked: MethodID.connectionUnblocked
        case .channelOpenOk: MethodID.channelOpenOk
        case .channelFlow: MethodID.channelFlow
        case .channelClose: MethodID.channelClose
        case .channelCloseOk: MethodID.channelCloseOk
        case .queueDeclareOk: MethodID.queueDeclareOk
        case .basicConsumeOk: MethodID.basicConsumeOk
        case .basicCancel: MethodID.basicCancel
        case .basicCancelOk: MethodID.basicCancelOk
        case .basicDeliver: MethodID.basicDeliver
        case .basicReturn: MethodID.basicReturn
        case .basicAck: MethodID.basicAck
        case .basicNack: MethodID.basicNack
        case .other(let id): id
        }
    }
}

/// The arguments of a `connection.close` or `channel.close` the broker sent: why, and which method of
/// ours it refused (0 and 0 when none).
struct BrokerClose: Equatable {
    var replyCode: UInt16
    var replyText: String
    var classID: UInt16
    var methodID: UInt16
}
