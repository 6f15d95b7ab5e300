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

    /// Apple's channel-management host for `environment` (iOS 18 broadcast channels): port 2195 for the
    /// sandbox, 2196 for production, as Apple's reference gives them.
    public static func channelManagement(_ environment: APNsEnvironment) -> APNsEndpoint {
        switch environment {
        case .development: APNsEndpoint(host: "api-manage-broadcast.sandbox.push.apple.com", port: 2195)
        case .production: APNsEndpoint(host: "api-manage-broadcast.push.apple.com", port: 2196)
        }
    }

    /// `host:port`, as the `:authority` header and logs show it.
    public var description: String { "\(host):\(port)" }
}
