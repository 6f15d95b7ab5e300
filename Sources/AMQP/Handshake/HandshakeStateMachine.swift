/// Opening one connection, from the protocol header to a work channel in confirm mode and an open
/// topology channel: every decision of the handshake, with no I/O.
///
/// `connection.start` → `start-ok` (PLAIN, or EXTERNAL with a client certificate); `connection.tune` →
/// `tune-ok` (the broker's `frame_max`, channel limit and heartbeat where lower than ours) and
/// `connection.open`; then `channel.open` 1, `confirm.select` on it, `channel.open` 2. The handler
/// sends what each event returns; anything else the broker sends meanwhile fails the handshake.
struct HandshakeStateMachine {
    enum State: Equatable {
        case awaitingStart
        case awaitingTune
        case awaitingOpenOk(Tuning)
        case awaitingWorkChannel(Tuning)
        case awaitingConfirmSelect(Tuning)
        case awaitingTopologyChannel(Tuning)
        case open(Tuning)
        case failed
    }

    /// What was agreed in `connection.tune`.
    struct Tuning: Equatable {
        var channelMax: UInt16
        var frameMax: Int
        var heartbeatSeconds: Int
    }

    /// A method to send, and on which channel.
    struct Outbound: Equatable {
        var channel: UInt16
        var method: OutboundMethod
    }

    /// What the handler must do after an event.
    enum Action: Equatable {
        /// Send this method.
        case send(Outbound)
        /// From now on frames up to the tuned `frameMax` both ways; then send `tune-ok` and `connection.open`.
        case tune(Tuning, Outbound, Outbound)
        /// The connection is ready for work.
        case opened(Tuning)
        /// The handshake cannot go on; `error` says why.
        case fail(AMQPError)
    }

    /// Who logs in, and how.
    struct Credentials: Equatable {
        var user: String
        var password: String
        var virtualHost: String
        /// SASL EXTERNAL: the broker takes the identity from the TLS client certificate.
        var external: Bool
    }

    static let workChannel: UInt16 = 1
    static let topologyChannel: UInt16 = 2

    private(set) var state = State.awaitingStart
    let credentials: Credentials
    let clientProperties: [String: AMQPFieldValue]
    /// What we ask for; the broker's lower non-zero values win.
    let frameMax: Int
    let heartbeatSeconds: Int
    /// The endpoint, for errors (never with its password).
    let endpoint: String

    init(credentials: Credentials, clientProperties: [String: AMQPFieldValue], frameMax: Int, heartbeatSeconds: Int, endpoint: String) {
        self.credentials = credentials
        self.clientProperties = clientProperties
        self.frameMax = frameMax
        self.heartbeatSeconds = heartbeatSeconds
        self.endpoint = endpoint
    }

    var isOpen: Bool { if case .open = state { true } else { false } }

    /// A method the broker sent on `channel` while the connection opens.
    mutating func received(_ method: InboundMethod, channel: UInt16) -> Action {
        switch (state, method) {
        case (.awaitingStart, .connectionStart(_, let mechanisms)):
            let mechanism = credentials.external ? "EXTERNAL" : "PLAIN"
            guard mechanisms.contains(mechanism) else {
                return fail(.invalidArgument, "the broker offers \(mechanisms.joined(separator: ", ")), not \(mechanism)")
            }
            state = .awaitingTune
            let response = credentials.external ? [] : [0] + Array(credentials.user.utf8) + [0] + Array(credentials.password.utf8)
            return .send(Outbound(channel: 0, method: .connectionStartOk(clientProperties: clientProperties, mechanism: mechanism, response: response, locale: "en_US")))
        case (.awaitingTune, .connectionTune(let channelMax, let brokerFrameMax, let heartbeat)):
            if channelMax != 0, channelMax < Self.topologyChannel {
                return fail(.invalidArgument, "the broker allows \(channelMax) channel(s); this client needs 2")
            }
            if brokerFrameMax != 0, brokerFrameMax < AMQPFrame.minimumSize {
                return fail(.invalidArgument, "the broker's frame_max \(brokerFrameMax) is below AMQP's minimum of \(AMQPFrame.minimumSize)")
            }
            let tuning = Tuning(
                channelMax: Self.topologyChannel,
                frameMax: brokerFrameMax == 0 ? frameMax : min(Int(brokerFrameMax), frameMax),
                heartbeatSeconds: heartbeat != 0 && Int(heartbeat) < heartbeatSeconds ? Int(heartbeat) : heartbeatSeconds
            )
            state = .awaitingOpenOk(tuning)
            return .tune(
                tuning,
                Outbound(channel: 0, method: .connectionTuneOk(channelMax: tuning.channelMax, frameMax: UInt32(tuning.frameMax), heartbeat: UInt16(clamping: tuning.heartbeatSeconds))),
                Outbound(channel: 0, method: .connectionOpen(virtualHost: credentials.virtualHost))
            )
        case (.awaitingOpenOk(let tuning), .connectionOpenOk):
            state = .awaitingWorkChannel(tuning)
            return .send(Outbound(channel: Self.workChannel, method: .channelOpen))
        case (.awaitingWorkChannel(let tuning), .channelOpenOk) where channel == Self.workChannel:
            state = .awaitingConfirmSelect(tuning)
            return .send(Outbound(channel: Self.workChannel, method: .confirmSelect))
        case (.awaitingConfirmSelect(let tuning), .other(MethodID.confirmSelectOk)) where channel == Self.workChannel:
            state = .awaitingTopologyChannel(tuning)
            return .send(Outbound(channel: Self.topologyChannel, method: .channelOpen))
        case (.awaitingTopologyChannel(let tuning), .channelOpenOk) where channel == Self.topologyChannel:
            state = .open(tuning)
            return .opened(tuning)
        case (_, .connectionClose(let close)):
            // 403 ACCESS_REFUSED for a wrong password, 530 NOT_ALLOWED for a vhost it may not open.
            state = .failed
            return .fail(AMQPError(.brokerClosed(replyCode: close.replyCode), operation: "log in to \(endpoint)", message: "connection closed by the broker: \(close.replyText)"))
        case (_, .channelClose(let close)):
            state = .failed
            return .fail(AMQPError(.brokerClosed(replyCode: close.replyCode), operation: "open channel \(channel) on \(endpoint)", message: "channel closed by the broker: \(close.replyText)"))
        case (_, .connectionSecure):
            return fail(.invalidArgument, "the broker asks for a SASL challenge round, which PLAIN and EXTERNAL do not have")
        default:
            return fail(.library(status: AMQPError.unexpectedStateStatus), "the broker sent method 0x\(String(method.id, radix: 16)) on channel \(channel) while the connection opened")
        }
    }

    private mutating func fail(_ code: AMQPError.Code, _ message: String) -> Action {
        state = .failed
        return .fail(AMQPError(code, operation: "log in to \(endpoint)", message: message))
    }
}
