internal import Logging
internal import NIOCore

/// One connection to the broker as a SwiftNIO channel handler: frames in and out through rabbitmq-c's
/// codec, the handshake, the replies the client waits for on each channel, heartbeats both ways, and
/// every failure turned into one ``AMQPError`` for its delegate.
///
/// Channel 1 consumes and publishes with confirms; channel 2 declares and deletes, so a refused
/// declaration closes only that channel (it is opened again by the next call). Frames written during
/// one event-loop tick go out in one socket write: they are encoded into one outbound buffer, which is
/// written when the read that caused them completes, or at the end of the tick for writes from
/// elsewhere.
///
/// `@unchecked Sendable`: it lives on its channel's event loop and is touched only there — by the
/// pipeline, by its own timers (scheduled on that loop) and by the client's driver, which runs on the
/// same loop — so its state is never shared between threads.
final class AMQPConnection: ChannelInboundHandler, @unchecked Sendable {
    typealias InboundIn = ByteBuffer
    typealias OutboundOut = ByteBuffer

    /// How to open the connection; everything but the endpoint.
    struct Settings {
        var heartbeatSeconds: Int
        /// Bounds the whole opening (TCP, TLS, handshake) and each reply the client waits for.
        var timeout: Duration
        var connectionName: String
        /// Log in with SASL EXTERNAL (TLS client certificate) instead of PLAIN.
        var external: Bool
        /// The frame size asked for; the broker's lower one wins.
        var frameMax: Int = AMQPMessage.defaultFrameMax
    }

    static let workChannel = HandshakeStateMachine.workChannel
    static let topologyChannel = HandshakeStateMachine.topologyChannel

    let endpoint: AMQPEndpoint
    let settings: Settings
    weak var delegate: (any AMQPConnectionDelegate)?
    let logger: Logger

    var context: ChannelHandlerContext?
    private var handshake: HandshakeStateMachine
    private var inbound: InboundDecoder
    var encoder = FrameEncoder()
    var outbound: ByteBuffer
    var flushScheduled = false
    var calls: [UInt16: CircularBuffer<PendingCall>] = [:]
    var openTimeout: Scheduled<Void>?
    var heartbeat: RepeatedTask?
    var wroteSinceTick = false
    var readSinceTick = false
    var silentTicks = 0
    var closing: (done: () -> Void, timeout: Scheduled<Void>?)?
    /// Set once the connection failed or was closed: nothing more is read, written or reported.
    var isFinished = false

    /// The broker's release, from `connection.start` (nil when it names none).
    private(set) var serverVersion: RabbitMQVersion?
    /// The frame size agreed in `connection.tune` (AMQP's minimum before it).
    var frameMax: Int { encoder.frameMax }
    /// Whether the handshake completed and the connection has not failed since.
    var isOpen: Bool { handshake.isOpen && !isFinished }
    /// False after the broker closed the topology channel, until the next call opens it again.
    var isTopologyChannelOpen = true

    init(endpoint: AMQPEndpoint, settings: Settings, logger: Logger) {
        self.endpoint = endpoint
        self.settings = settings
        self.logger = logger
        handshake = HandshakeStateMachine(
            credentials: .init(user: endpoint.user, password: endpoint.password, virtualHost: endpoint.virtualHost, external: settings.external),
            clientProperties: Self.clientProperties(name: settings.connectionName),
            frameMax: settings.frameMax, heartbeatSeconds: settings.heartbeatSeconds, endpoint: "\(endpoint)"
        )
        // The broker's frames may be as large as we ask for from the first one on.
        inbound = InboundDecoder(maximumFrameSize: settings.frameMax)
        outbound = ByteBufferAllocator().buffer(capacity: 0)
    }

    /// What the broker shows for this connection; the capabilities are the behaviours we handle.
    static func clientProperties(name: String) -> [String: AMQPFieldValue] {
        [
            "connection_name": .string(name),
            "product": "apns-worker",
            "information": .string("rabbitmq-c \(AMQPLibrary.version) as the codec, on SwiftNIO"),
            // Without consumer_cancel_notify the broker silently drops a consumer whose queue is deleted.
            "capabilities": .table(["consumer_cancel_notify": true, "connection.blocked": true, "authentication_failure_close": true, "publisher_confirms": true]),
        ]
    }

    // MARK: Channel events

    func handlerAdded(context: ChannelHandlerContext) {
        self.context = context
        outbound = context.channel.allocator.buffer(capacity: 4096)
        let timeout = settings.timeout
        openTimeout = context.eventLoop.scheduleTask(in: .nanoseconds(Int64(clamping: timeout.nanoseconds))) { [weak self] in
            guard let self, !self.handshake.isOpen else { return }
            self.fail(.library(AMQPError.timeoutStatus, "connect to \(self.endpoint)", "the connection did not open within \(timeout)"))
        }
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        fail(AMQPError(.connectionLost, operation: "read from \(endpoint)", message: "the connection was removed"))
        self.context = nil
    }

    func channelActive(context: ChannelHandlerContext) {
        encoder.protocolHeader(into: &outbound)
        flush()
        context.fireChannelActive()
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard !isFinished else { return }
        inbound.receive(unwrapInboundIn(data))
        readSinceTick = true
        do {
            while !isFinished, let event = try inbound.next() {
                try handle(event)
            }
        } catch {
            fail(AMQPError(error.code, operation: "read from \(endpoint)", message: error.message, brokerReplyCode: error.brokerReplyCode))
        }
    }

    func channelReadComplete(context: ChannelHandlerContext) {
        if isOpen { delegate?.connectionDidFinishReading(self) }
        flush()
        context.fireChannelReadComplete()
    }

    func channelInactive(context: ChannelHandlerContext) {
        if let closing {
            // We asked for this close: not a failure. A call still waiting gets no reply now, and its
            // timeout does nothing once the connection is finished: without an answer here, whoever
            // awaits it (a topology declaration racing a shutdown) would wait forever.
            self.closing = nil
            closing.timeout?.cancel()
            finish()
            failCalls(AMQPError(.notConnected, operation: "close", message: "the client closed the connection before the broker answered"))
            closing.done()
        }
        fail(AMQPError(.connectionLost, operation: "read from \(endpoint)", message: "the broker closed the socket"))
        context.fireChannelInactive()
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        fail(TransportErrors.amqpError(error, endpoint: endpoint))
    }

    // MARK: Frames in

    private func handle(_ event: InboundDecoder.Event) throws(AMQPError) {
        switch event {
        case .heartbeat:
            return
        case .content(let content):
            delegate?.connection(self, didReceive: content)
        case .method(let method, let channel) where handshake.isOpen:
            try dispatch(method, channel: channel)
        case .method(let method, let channel):
            if case .connectionStart(let properties, _) = method, case .string(let version)? = properties["version"] {
                serverVersion = RabbitMQVersion(version)
            }
            run(handshake.received(method, channel: channel))
        }
    }

    /// A method after the handshake: a reply to a call, or something the broker says by itself.
    private func dispatch(_ method: InboundMethod, channel: UInt16) throws(AMQPError) {
        switch method {
        case .connectionClose(let close):
            write(.connectionCloseOk, on: 0)
            flush()
            throw AMQPError(.brokerClosed(replyCode: close.replyCode), operation: "connection to \(endpoint)", message: "connection closed by the broker: \(close.replyText)")
        case .connectionCloseOk:
            context?.close(promise: nil)
        case .connectionBlocked, .connectionUnblocked:
            delegate?.connection(self, didReceive: method)
        case .channelClose(let close):
            write(.channelCloseOk, on: channel)
            let error = AMQPError(.brokerClosed(replyCode: close.replyCode), operation: "channel \(channel) on \(endpoint)", message: "channel closed by the broker: \(close.replyText)")
            guard channel == Self.topologyChannel else { throw error }
            // It refused the call on the wire; the calls behind it go out once the channel is open again.
            isTopologyChannelOpen = false
            if let call = calls[channel]?.first, call.isSent {
                completeCall(on: channel, with: .failure(AMQPError(error.code, operation: call.operation, message: error.message)))
            }
        case .channelFlow(let active):
            write(.channelFlowOk(active: active), on: channel)
        case .basicAck, .basicNack, .basicCancel:
            guard channel == Self.workChannel else { throw .protocolViolation("read from \(endpoint)", "a confirm or cancel on channel \(channel)") }
            delegate?.connection(self, didReceive: method)
        default:
            guard let call = calls[channel]?.first, call.isSent, call.expects == method.id else {
                throw .protocolViolation("read from \(endpoint)", "method 0x\(String(method.id, radix: 16)) on channel \(channel), which nothing waits for")
            }
            completeCall(on: channel, with: .success(method))
        }
    }

    private func run(_ action: HandshakeStateMachine.Action) {
        switch action {
        case .send(let outbound):
            write(outbound.method, on: outbound.channel)
        case .tune(let tuning, let tuneOk, let open):
            encoder.frameMax = tuning.frameMax
            inbound.maximumFrameSize = tuning.frameMax
            write(tuneOk.method, on: tuneOk.channel)
            write(open.method, on: open.channel)
            startHeartbeats(seconds: tuning.heartbeatSeconds)
        case .opened:
            openTimeout?.cancel()
            openTimeout = nil
            inbound.contentChannel = Self.workChannel
            delegate?.connectionDidOpen(self)
        case .fail(let error):
            fail(error)
        }
    }
}
