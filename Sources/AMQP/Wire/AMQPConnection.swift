internal import CRabbitMQ
#if canImport(Glibc)
internal import Glibc
#endif

/// One rabbitmq-c connection: socket, login, and the two channels this client uses.
///
/// Not `Sendable`: rabbitmq-c state is not thread-safe, so an instance belongs to the connection thread that
/// created it, the only one that ever calls it. It owns `amqp_connection_state_t` (and through it the
/// socket) and destroys it in `deinit`. Library-owned memory (frames, method arguments) is copied into
/// Swift values before the next call into rabbitmq-c may release it.
final class AMQPConnection {
    /// Channel 1 consumes and publishes with confirms; one channel keeps frame handling simple.
    static let workChannel: amqp_channel_t = 1
    /// Channel 2 declares and deletes, so a 406 on a declaration closes only this channel, not the consumer's.
    static let topologyChannel: amqp_channel_t = 2

    /// How to open the connection; everything but the endpoint.
    struct Settings {
        var heartbeatSeconds: Int
        var timeout: Duration
        var connectionName: String
        var tls: AMQPTLSOptions
    }

    let state: amqp_connection_state_t
    let endpoint: AMQPEndpoint
    /// The broker's release, from its `connection.start` properties (nil when it names none).
    private(set) var serverVersion: RabbitMQVersion?
    /// False once the socket failed or the broker closed the connection: only destruction is left.
    private(set) var isUsable = false
    /// Names repeated by every delivery, decoded once (see ``RecentStrings``).
    private var recentStrings = RecentStrings()
    /// Whether the socket holds back partial segments (see ``cork()``). Every call that waits for the
    /// broker's reply uncorks first: a request held back would wait for the kernel's 200 ms cork timeout.
    var isCorked = false
    /// False once the broker closed the work channel; the driver then starts over with a new connection.
    private(set) var isWorkChannelOpen = false
    private(set) var isTopologyChannelOpen = false

    /// Whether the work channel can still consume and publish.
    var canWork: Bool { isUsable && isWorkChannelOpen }

    /// Connects, logs in and opens the work channel, each step bounded by `settings.timeout`.
    init(endpoint: AMQPEndpoint, settings: Settings) throws(AMQPError) {
        guard let state = amqp_new_connection() else {
            throw AMQPError(.library(status: AMQP_STATUS_NO_MEMORY.rawValue), operation: "create connection", message: "out of memory")
        }
        self.state = state
        self.endpoint = endpoint
        // From here on every property is set, so a throw runs deinit, which destroys `state`.
        var timeout = timeval(settings.timeout)
        try AMQPError.check(amqp_set_handshake_timeout(state, &timeout), "set handshake timeout")
        try AMQPError.check(amqp_set_rpc_timeout(state, &timeout), "set RPC timeout")
        let socket = try Self.makeSocket(state, endpoint: endpoint, tls: settings.tls)
        let opened = amqp_socket_open_noblock(socket, endpoint.host, Int32(endpoint.port), &timeout)
        if opened == AMQP_STATUS_SOCKET_ERROR.rawValue, let reason = SocketDiagnosis.explain(host: endpoint.host, port: endpoint.port, timeout: settings.timeout) {
            throw AMQPError(.library(status: opened), operation: "connect to \(endpoint)", message: reason)
        }
        try AMQPError.check(opened, "connect to \(endpoint)")
        try logIn(settings)
        if let properties = amqp_get_server_properties(state), case .string(let version)? = FieldDecoding.table(properties.pointee)["version"] {
            serverVersion = RabbitMQVersion(version)
        }
        isUsable = true
        try openChannel(Self.workChannel)
    }

    /// The largest frame this connection may send, as negotiated at login.
    var frameMax: Int { Int(amqp_get_frame_max(state)) }

    /// The socket to poll for input.
    var socketDescriptor: Int32 { amqp_get_sockfd(state) }

    /// Whether rabbitmq-c holds input the socket will not signal again (queued frames, read-ahead bytes).
    var hasBufferedInput: Bool { amqp_frames_enqueued(state) != 0 || amqp_data_in_buffer(state) != 0 }

    /// The next frame if one can be read without waiting; heartbeats are sent and checked on the way.
    func nextFrame() throws(AMQPError) -> InboundFrame? {
        var frame = amqp_frame_t()
        var immediately = timeval(tv_sec: 0, tv_usec: 0)
        let status = amqp_simple_wait_frame_noblock(state, &frame, &immediately)
        if status == AMQP_STATUS_TIMEOUT.rawValue { return nil }
        try check(status, "read from \(endpoint)")
        let copied = InboundFrame(frame, strings: &recentStrings)
        amqp_maybe_release_buffers(state)
        return copied
    }

    /// Opens `channel` (the work channel, or the topology channel again after the broker closed it).
    func openChannel(_ channel: amqp_channel_t) throws(AMQPError) {
        uncork()
        amqp_channel_open(state, channel)
        try checkReply(channel: channel, "open channel \(channel) on \(endpoint)")
        if channel == Self.workChannel { isWorkChannelOpen = true } else { isTopologyChannelOpen = true }
    }

    /// Turns the status of a call that is not an RPC into an error; a failure leaves the socket unusable.
    func check(_ status: Int32, _ operation: @autoclosure () -> String) throws(AMQPError) {
        guard status != AMQP_STATUS_OK.rawValue else { return }
        isUsable = false
        try AMQPError.check(status, operation())
    }

    /// Checks the reply of the last RPC on `channel`, answering a broker close so the state stays consistent.
    func checkReply(channel: amqp_channel_t, _ operation: @autoclosure () -> String) throws(AMQPError) {
        let reply = amqp_get_rpc_reply(state)
        do {
            // Decode first: the reply's method points into buffers the answer below may recycle.
            try AMQPError.check(reply: reply, operation())
        } catch {
            if reply.reply_type == AMQP_RESPONSE_SERVER_EXCEPTION {
                if reply.reply.id == CRabbitMQ_method_channel_close() { acknowledgeChannelClose(channel) } else { acknowledgeConnectionClose() }
            } else {
                // A library failure mid-RPC (timeout, socket error) leaves the protocol state unknown.
                isUsable = false
            }
            throw error
        }
    }

    /// Answers the broker's `channel.close`, which it needs before the channel number can be reused.
    func acknowledgeChannelClose(_ channel: amqp_channel_t) {
        var ok = amqp_channel_close_ok_t(dummy: 0)
        if amqp_send_method(state, channel, CRabbitMQ_method_channel_close_ok(), &ok) != AMQP_STATUS_OK.rawValue { isUsable = false }
        if channel == Self.topologyChannel { isTopologyChannelOpen = false } else { isWorkChannelOpen = false }
    }

    /// Answers the broker's `connection.close`; the connection is finished either way.
    func acknowledgeConnectionClose() {
        var ok = amqp_connection_close_ok_t(dummy: 0)
        _ = amqp_send_method(state, 0, CRabbitMQ_method_connection_close_ok(), &ok)
        isUsable = false
    }

    /// Closes channel and connection politely (bounded by the RPC timeout); failures are not worth reporting.
    func close() {
        guard isUsable else { return }
        uncork()
        isUsable = false
        if isWorkChannelOpen { amqp_channel_close(state, Self.workChannel, AMQP_REPLY_SUCCESS) }
        amqp_connection_close(state, AMQP_REPLY_SUCCESS)
    }

    deinit {
        amqp_destroy_connection(state)
    }
}
