public import APNsCore

/// One entry of `credentials`: a name, how it authenticates, and the topics it serves.
public struct CredentialSettings: Sendable, Hashable {
    /// Unique among the credentials; jobs may name it explicitly.
    public var name: String
    /// Token or certificate, with the files each needs.
    public var kind: CredentialKind
    /// Which APNs service the credential's apps and device tokens belong to.
    public var environment: APNsEnvironment
    /// Connections for this credential; `nil` means `apns.connections`.
    public var connections: Int?
    /// Jobs for these topics use this credential; a bundle id also matches its push-type topics
    /// (`com.acme.app` matches `com.acme.app.voip`).
    public var topics: [String]
    /// A proxy for this credential's connections only; `nil` means `apns.proxy`.
    public var proxy: HTTPProxy?
    /// This credential's share of a worker's job slots, relative to the others': while jobs of
    /// several credentials wait, each freed slot goes to the one holding the fewest per unit of weight.
    public var weight: Int = 1
    /// Notifications per second this credential may send across the whole fleet (each worker takes its
    /// share: `worker.fleet_size`, or the jobs queue's consumers); `nil`, no limit.
    public var rateLimit: Int?
    /// The same per topic (a team's noisy app); a request waits for both its credential's and its topic's.
    public var topicRateLimits: [String: Int] = [:]

    /// A credential as the file would describe it.
    public init(
        name: String,
        kind: CredentialKind,
        environment: APNsEnvironment = .production,
        connections: Int? = nil,
        topics: [String] = [],
        proxy: HTTPProxy? = nil,
        weight: Int = 1
    ) {
        self.name = name
        self.kind = kind
        self.environment = environment
        self.connections = connections
        self.topics = topics
        self.proxy = proxy
        self.weight = weight
    }
}
