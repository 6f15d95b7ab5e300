/// Whether the worker should receive traffic (Kubernetes readiness), and why not.
public struct Readiness: Sendable, Hashable, Encodable {
    public var connected: Bool
    public var consuming: Bool
    public var draining: Bool
    /// Credentials APNs refused, paused for their backoff: reported, but not a reason to be unready.
    public var pausedCredentials: [String]

    /// Ready while connected and consuming and not draining: the worker can take jobs and publish
    /// their outcomes.
    ///
    /// A paused credential does not count. It is one team's fault (a revoked key), every worker of the
    /// fleet sees it alike, and no restart or reroute mends it; unready, the whole process would stop
    /// serving every other team's jobs, and rollouts and node drains would stall behind it. It shows
    /// in ``pausedCredentials``, in `apns_credential_paused` and in the `APNsWorkerCredentialPaused` alert.
    public var ready: Bool { connected && consuming && !draining }

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
