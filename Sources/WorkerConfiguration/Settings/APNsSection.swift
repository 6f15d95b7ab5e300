public import APNsCore

/// `apns`: how the worker talks to APNs, shared by every credential.
public struct APNsSection: Sendable, Hashable {
    /// Overrides Apple's hosts for every credential (a mock server, a proxy).
    public var endpoint: APNsEndpoint? = nil
    /// Where channel-management requests go (iOS 18 broadcast channels); nil: ``endpoint`` if set,
    /// else Apple's `api-manage-broadcast` host for the credential's environment (ports 2195 / 2196).
    public var channelEndpoint: APNsEndpoint? = nil
    /// Where broadcasts go; nil: ``endpoint`` if set, else Apple's push host for the environment (the
    /// reference's prose; Apple's samples show `api-broadcast…` hosts instead: set this to use them).
    public var broadcastEndpoint: APNsEndpoint? = nil
    /// An extra PEM CA file to trust (the mock server's CA in tests).
    public var caFile: String? = nil
    /// Trust the system CA store, as Apple's hosts need.
    public var trustSystemStore: Bool = true
    /// How long a request may wait for APNs' answer.
    public var requestTimeout: Duration = .seconds(10)
    /// How long a TCP connect and TLS handshake may take.
    public var connectTimeout: Duration = .seconds(10)
    /// PING a connection that was quiet this long.
    public var pingInterval: Duration = .seconds(60)
    /// Replace a connection whose PING is not answered within this time.
    public var pingTimeout: Duration = .seconds(10)
    /// Connections per credential, unless the credential says otherwise.
    public var connections: Int = 2
    /// Requests that may wait for a free stream per credential before sends fail at once.
    public var maxWaitingRequests: Int = 10_000
    /// The HTTP proxy every APNs connection tunnels through (`CONNECT`); nil connects directly, unless
    /// ``proxyFromEnvironment`` finds `HTTPS_PROXY`.
    public var proxy: HTTPProxy? = nil
    /// Hosts that bypass the proxy (added to `NO_PROXY` when the proxy comes from the environment).
    public var noProxy: [String] = []
    /// Whether `HTTPS_PROXY` / `https_proxy` and `NO_PROXY` / `no_proxy` apply when ``proxy`` is not set.
    public var proxyFromEnvironment: Bool = true

    /// The documented defaults.
    public init() {}
}
