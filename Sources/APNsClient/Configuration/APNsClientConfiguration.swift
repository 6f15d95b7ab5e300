public import APNsCore
/// How the client connects, waits, checks health and retries.
public struct APNsClientConfiguration: Sendable {
    /// Long-lived connections per (credential, endpoint).
    public var connectionsPerPool: Int = 2
    /// This client's part of each pool's connections (of ``connectionsPerPool`` or the credential's
    /// own count), when a worker's shards each run a client: together they open what was configured.
    public var connectionShare: ShardShare = .whole
    /// How long a request may wait for an answer (and for a free stream) before it is reported: as
    /// "outcome unknown" once sent, as "not processed" while still waiting for a stream.
    public var requestTimeout: Duration = .seconds(10)
    /// How long a TCP connect and TLS handshake may take.
    public var connectTimeout: Duration = .seconds(10)
    /// Send an HTTP/2 PING when nothing arrived on a connection for this long.
    public var pingInterval: Duration = .seconds(60)
    /// Replace a connection whose PING is not answered within this time.
    public var pingTimeout: Duration = .seconds(10)
    /// The least time between two connection attempts of one pool: APNs treats rapid reconnects as abuse.
    public var minimumConnectInterval: Duration = .seconds(1)
    /// The first delay after a failed connection attempt; it doubles (with jitter) up to ``maximumReconnectDelay``.
    public var initialReconnectDelay: Duration = .seconds(1)
    public var maximumReconnectDelay: Duration = .seconds(60)
    /// Callers that may wait for a stream per pool; beyond it `send` fails at once ("not processed").
    public var maximumWaitingRequests: Int = 10_000
    /// Cap on concurrent streams per connection, below what the server allows (nil: the server's limit).
    public var maximumStreamsPerConnection: Int? = nil
    /// How often a request refused unprocessed (GOAWAY, REFUSED_STREAM, a retiring connection) is sent
    /// again, transparently, before the caller hears about it.
    public var maximumTransparentResends: Int = 5
    /// Trust the system CA store (production APNs needs it).
    public var trustsSystemStore: Bool = true
    /// Extra CA certificates (PEM) to trust: how tests and benchmarks trust the mock server.
    public var additionalTrustedCAFile: String? = nil
    /// An HTTP proxy every connection tunnels through (`CONNECT`), except to hosts it bypasses.
    public var proxy: HTTPProxy? = nil

    public init() {}
}
