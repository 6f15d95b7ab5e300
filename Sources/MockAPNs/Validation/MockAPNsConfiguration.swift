public import APNsCore

/// What the mock server knows and how it behaves: keys, teams and their topics, devices, stream limits.
public struct MockAPNsConfiguration: Sendable {
    /// The keys provider tokens may be signed with; each names its team.
    public var signingKeys: [MockSigningKey]
    /// Team id → the bundle ids it may push to. Topics are a bundle id plus the push type's suffix, so
    /// "com.example.app" here allows "com.example.app", "com.example.app.voip" and so on.
    public var teamTopics: [String: Set<String>]
    public var registry: DeviceRegistry
    /// `.development` answers with `apns-unique-id`, as the sandbox does.
    public var environment: APNsEnvironment
    /// SETTINGS_MAX_CONCURRENT_STREAMS once a connection has had a push accepted (APNs was seen at 1000).
    public var maxConcurrentStreams: UInt32
    /// SETTINGS_MAX_CONCURRENT_STREAMS after a rejection, or nil to keep the limit: APNs was seen
    /// dropping a connection to one stream after one.
    public var streamsAfterRejection: UInt32?
    /// Broadcast channels an app may have (APNs: 10,000 per app per environment).
    public var maximumChannelsPerApp = 10_000

    public init(
        signingKeys: [MockSigningKey] = [],
        teamTopics: [String: Set<String>] = [:],
        registry: DeviceRegistry = DeviceRegistry(),
        environment: APNsEnvironment = .development,
        maxConcurrentStreams: UInt32 = 1000,
        streamsAfterRejection: UInt32? = nil
    ) {
        self.signingKeys = signingKeys
        self.teamTopics = teamTopics
        self.registry = registry
        self.environment = environment
        self.maxConcurrentStreams = maxConcurrentStreams
        self.streamsAfterRejection = streamsAfterRejection
    }
}
