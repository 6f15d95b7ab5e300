public import APNsCore

/// The devices of a multicast job (`device_tokens`): one notification, many tokens, each sent as its
/// own request under its own apns-id.
public struct Multicast: Sendable {
    /// How the outcome is reported.
    public enum ResultStyle: String, Sendable {
        /// One result per pass over the job: counts by outcome, and an entry for every token not delivered.
        case summary
        /// One result per token, shaped like a single job's (for consumers that route on each token).
        case perToken = "per_token"
    }

    /// A listed token that is not a device token: answered `rejected` with `BadDeviceToken`, never sent.
    public struct InvalidToken: Sendable, Hashable {
        /// The listed text, shortened and escaped (it is untrusted).
        public let text: String
        public let detail: String
    }

    /// The most tokens one job may list. A 10,000-token job is about 700 KB, well inside the body limit,
    /// and holds about 1 MiB while it runs.
    public static let maximumTokens = 10_000

    /// The valid tokens, each once, in the order listed.
    public let tokens: [DeviceToken]
    /// Listed tokens that are not device tokens, in the order listed.
    public let invalidTokens: [InvalidToken]
    /// Tokens listed more than once: each is sent once, so these repeats are only counted.
    public let repeatedTokens: Int
    public let resultStyle: ResultStyle

    public init(tokens: [DeviceToken], invalidTokens: [InvalidToken] = [], repeatedTokens: Int = 0, resultStyle: ResultStyle = .summary) {
        self.tokens = tokens
        self.invalidTokens = invalidTokens
        self.repeatedTokens = repeatedTokens
        self.resultStyle = resultStyle
    }
}
