internal import CRabbitMQ
#if canImport(Glibc)
internal import Glibc
#endif

/// A blocking rabbitmq-c connection with one open channel.
///
/// Not `Sendable`: rabbitmq-c state is not thread-safe, so each instance belongs to the one thread that
/// created it, which must also be the only one to call it. Library-owned memory (frames, method
/// arguments) is copied into Swift values before anything else calls into rabbitmq-c.
public final class AMQPConnection {
    /// Where and how to connect. The password is never part of any description.
    public struct Endpoint: Sendable, CustomStringConvertible {
        public var host: String
        public var port: Int
        public var virtualHost: String
        public var user: String
        public var password: String
        /// Seconds between heartbeats the client asks for; 0 turns them off.
        public var heartbeatSeconds: Int

        public init(host: String, port: Int = 5672, virtualHost: String = "/", user: String = "guest", password: String = "guest", heartbeatSeconds: Int = 15) {
            self.host = host
            self.port = port
            self.virtualHost = virtualHost
            self.user = user
            self.password = password
            self.heartbeatSeconds = heartbeatSeconds
        }

        public var description: String { "amqp://\(user)@\(host):\(port)\(virtualHost == "/" ? "/" : "/" + virtualHost)" }
    }

    /// The channel every operation uses.
    static let channel: amqp_channel_t = 1

    private let state: amqp_connection_state_t
    public let endpoint: Endpoint
    private var isOpen = false

    /// Connects, logs in and opens channel 1, waiting at most `timeoutSeconds` for the socket.
    public init(endpoint: Endpoint, timeoutSeconds: Int = 10) throws(AMQPError) {
        guard let state = amqp_new_connection() else {
            throw AMQPError(.library(status: AMQP_STATUS_NO_MEMORY.rawValue), operation: "create connection", message: "out of memory")
        }
        self.state = state
        self.endpoint = endpoint
        // From here on every property is set, so a throw runs deinit, which destroys `state`.
        guard let socket = amqp_tcp_socket_new(state) else {
            throw AMQPError(.library(status: AMQP_STATUS_NO_MEMORY.rawValue), operation: "create socket", message: "out of memory")
        }
        var timeout = timeval(tv_sec: timeoutSeconds, tv_usec: 0)
        try AMQPError.check(amqp_socket_open_noblock(socket, endpoint.host, Int32(endpoint.port), &timeout), "open socket to \(endpoint)")
        var properties = amqp_table_t(num_entries: 0, entries: nil)
        try AMQPError.check(
            reply: CRabbitMQ_login_plain(state, endpoint.virtualHost, 0, 131_072, Int32(endpoint.heartbeatSeconds), &properties, endpoint.user, endpoint.password),
            "log in to \(endpoint)"
        )
        amqp_channel_open(state, Self.channel)
        try AMQPError.check(reply: amqp_get_rpc_reply(state), "open channel on \(endpoint)")
        isOpen = true
    }

    /// Closes the channel and the connection politely; errors on the way out are not worth reporting.
    public func close() {
        guard isOpen else { return }
        isOpen = false
        amqp_channel_close(state, Self.channel, AMQP_REPLY_SUCCESS)
        amqp_connection_close(state, AMQP_REPLY_SUCCESS)
    }

    deinit {
        close()
        amqp_destroy_connection(state)
    }
}
