/// The AMQP 0-9-1 methods this client sends or acts on, by number (class id × 65,536 + method id).
///
/// rabbitmq-c defines these as macros with a cast, which Swift does not import; the values are the
/// protocol's, and a test checks each against the library's own `amqp_method_name`.
enum MethodID {
    static let connectionStart: UInt32 = 0x000A_000A
    static let connectionStartOk: UInt32 = 0x000A_000B
    static let connectionSecure: UInt32 = 0x000A_0014
    static let connectionTune: UInt32 = 0x000A_001E
    static let connectionTuneOk: UInt32 = 0x000A_001F
    static let connectionOpen: UInt32 = 0x000A_0028
    static let connectionOpenOk: UInt32 = 0x000A_0029
    static let connectionClose: UInt32 = 0x000A_0032
    static let connectionCloseOk: UInt32 = 0x000A_0033
    static let connectionBlocked: UInt32 = 0x000A_003C
    static let connectionUnblocked: UInt32 = 0x000A_003D
    static let channelOpen: UInt32 = 0x0014_000A
    static let channelOpenOk: UInt32 = 0x0014_000B
    static let channelFlow: UInt32 = 0x0014_0014
    static let channelFlowOk: UInt32 = 0x0014_0015
    static let channelClose: UInt32 = 0x0014_0028
    static let channelCloseOk: UInt32 = 0x0014_0029
    static let exchangeDeclare: UInt32 = 0x0028_000A
    static let exchangeDeclareOk: UInt32 = 0x0028_000B
    static let exchangeDelete: UInt32 = 0x0028_0014
    static let exchangeDeleteOk: UInt32 = 0x0028_0015
    static let exchangeBind: UInt32 = 0x0028_001E
    static let exchangeBindOk: UInt32 = 0x0028_001F
    static let exchangeUnbind: UInt32 = 0x0028_0028
    static let exchangeUnbindOk: UInt32 = 0x0028_0033
    static let queueDeclare: UInt32 = 0x0032_000A
    static let queueDeclareOk: UInt32 = 0x0032_000B
    static let queueBind: UInt32 = 0x0032_0014
    static let queueBindOk: UInt32 = 0x0032_0015
    static let queuePurge: UInt32 = 0x0032_001E
    static let queuePurgeOk: UInt32 = 0x0032_001F
    static let queueDelete: UInt32 = 0x0032_0028
    static let queueDeleteOk: UInt32 = 0x0032_0029
    static let queueUnbind: UInt32 = 0x0032_0032
    static let queueUnbindOk: UInt32 = 0x0032_0033
    static let basicQos: UInt32 = 0x003C_000A
    static let basicQosOk: UInt32 = 0x003C_000B
    static let basicConsume: UInt32 = 0x003C_0014
    static let basicConsumeOk: UInt32 = 0x003C_0015
    static let basicCancel: UInt32 = 0x003C_001E
    static let basicCancelOk: UInt32 = 0x003C_001F
    static let basicPublish: UInt32 = 0x003C_0028
    static let basicReturn: UInt32 = 0x003C_0032
    static let basicDeliver: UInt32 = 0x003C_003C
    static let basicAck: UInt32 = 0x003C_0050
    static let basicReject: UInt32 = 0x003C_005A
    static let basicNack: UInt32 = 0x003C_0078
    static let confirmSelect: UInt32 = 0x0055_000A
    static let confirmSelectOk: UInt32 = 0x0055_000B

    /// Every number above, for the test that holds them to rabbitmq-c's names.
    static let all: [UInt32] = [
        connectionStart, connectionStartOk, connectionSecure, connectionTune, connectionTuneOk, connectionOpen, connectionOpenOk,
        connectionClose, connectionCloseOk, connectionBlocked, connectionUnblocked, channelOpen, channelOpenOk, channelFlow,
        channelFlowOk, channelClose, channelCloseOk, exchangeDeclare, exchangeDeclareOk, exchangeDelete, exchangeDeleteOk,
        exchangeBind, exchangeBindOk, exchangeUnbind, exchangeUnbindOk, queueDeclare, queueDeclareOk, queueBind, queueBindOk,
        queuePurge, queuePurgeOk, queueDelete, queueDeleteOk, queueUnbind, queueUnbindOk, basicQos, basicQosOk, basicConsume,
        basicConsumeOk, basicCancel, basicCancelOk, basicPublish, basicReturn, basicDeliver, basicAck, basicReject, basicNack,
        confirmSelect, confirmSelectOk,
    ]
}
