/// `amqp`: how to reach RabbitMQ.
public struct AMQPSection: Sendable, Hashable {
    /// Broker URLs, one per cluster node, tried in order: `amqp[s]://user:password@host:port/vhost`.
    public var urls: [String] = ["amqp://guest:guest@localhost:5672/"]
    /// A file whose content (trailing newlines removed) replaces the password of every URL, so the
    /// secret need not sit in the file or the environment.
    public var passwordFile: String? = nil
    /// The AMQP heartbeat, in whole seconds; zero turns heartbeats off.
    public var heartbeat: Duration = .seconds(15)
    /// How long a TCP connect and the AMQP handshake may take.
    public var connectTimeout: Duration = .seconds(10)
    /// How long `run` keeps trying to reach a broker it cannot reach at start (a fleet that starts
    /// before its broker), with the reconnect backoff; zero gives up after one round of `urls`.
    public var startupTimeout: Duration = .seconds(300)
    /// TLS settings for `amqps://` URLs.
    public var tls = AMQPTLSSection()
    /// The connection name the broker's management UI shows.
    public var connectionName: String = "apns-worker"

    /// The documented defaults.
    public init() {}
}
