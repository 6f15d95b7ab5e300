public import APNsCore

/// Where to connect: an APNs host and port (or the mock server's).
public struct APNsEndpoint: Hashable, Sendable, CustomStringConvertible {
    public var host: String
    public var port: Int

    public init(host: String, port: Int = APNsEnvironment.defaultPort) {
        self.host = host
        self.port = port
    }

    /// Apple's host for `environment`, on port 443.
    public init(environment: APNsEnvironment) {
        self.init(host: environment.host)
    }

    /// `host:port`, as the `:authority` header and logs show it.
    public var description: String { "\(host):\(port)" }
}
