/// Everything an ``AMQPClient`` needs to find, reach and keep talking to the broker.
public struct AMQPClientOptions: Sendable {
    /// The cluster's nodes: the first reachable one is used, and each reconnect moves on to the next.
    public var endpoints: [AMQPEndpoint]
    /// Heartbeat interval asked of the broker; 0 turns heartbeats off.
    public var heartbeatSeconds: Int = 15
    /// Limit for the TCP (and TLS) connect, for the AMQP handshake, and for each synchronous broker call.
    public var connectTimeout: Duration = .seconds(10)
    /// Verification and client certificate for `amqps` endpoints.
    public var tls = AMQPTLSOptions()
    /// The first reconnect delay; it doubles on each failed attempt (with jitter) up to the maximum.
    public var initialReconnectDelay: Duration = .milliseconds(200)
    /// The ceiling of the reconnect delay.
    public var maximumReconnectDelay: Duration = .seconds(30)
    /// The `connection_name` client property, shown by the management UI and `rabbitmqctl`.
    public var connectionName: String = "apns-worker"
    /// A file whose first line replaces every endpoint's password; read again at each connection attempt, so
    /// a rotated secret is picked up on reconnect.
    public var passwordFile: String?
    /// How long `close()` waits for outstanding publisher confirms before giving up on them.
    public var closeTimeout: Duration = .seconds(5)

    /// Defaults for everything but the endpoints.
    public init(endpoints: [AMQPEndpoint]) {
        self.endpoints = endpoints
    }
}
