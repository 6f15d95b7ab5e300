/// Whether the worker should receive traffic (Kubernetes readiness), and why not.
public struct Readiness: Sendable, Hashable, Encodable {
    public var connected: Bool
    public var consuming: Bool
    public var draining: Bool
    /// Credentials APNs refused, paused for their backoff.
    public var pausedCredentials: [String]

    /// Ready while connected and consuming, not draining, and every credential usable.
    public var ready: Bool { connected && consuming && !draining && pausedCredentials.isEmpty }

    enum CodingKeys: String, CodingKey {
        case ready, connected, consuming, draining
        case pausedCredentials = "paused_credentials"
    }

    public init(connected: Bool, consuming: Bool, draining: Bool, pausedCredentials: [String]) {
        self.connected = connected
        self.consuming = consuming
        self.draining = draining
        self.pausedCredentials = pausedCredentials
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(ready, forKey: .ready)
        try container.encode(connected, forKey: .connected)
        try container.encode(consuming, forKey: .consuming)
        try container.encode(draining, forKey: .draining)
        try container.encode(pausedCredentials, forKey: .pausedCredentials)
    }
}
