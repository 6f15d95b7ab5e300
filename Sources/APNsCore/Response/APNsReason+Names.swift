/// The wire names of reasons and the HTTP status each is documented with.
extension APNsReason {
    /// Every reason this version knows, with its wire name and documented HTTP status.
    static let table: [(reason: APNsReason, name: String, status: Int)] = [
        (.badCollapseID, "BadCollapseId", 400), (.badDeviceToken, "BadDeviceToken", 400),
        (.badExpirationDate, "BadExpirationDate", 400), (.badMessageID, "BadMessageId", 400),
        (.badPriority, "BadPriority", 400), (.badTopic, "BadTopic", 400),
        (.deviceTokenNotForTopic, "DeviceTokenNotForTopic", 400), (.duplicateHeaders, "DuplicateHeaders", 400),
        (.idleTimeout, "IdleTimeout", 400), (.invalidPushType, "InvalidPushType", 400),
        (.missingDeviceToken, "MissingDeviceToken", 400), (.missingTopic, "MissingTopic", 400),
        (.payloadEmpty, "PayloadEmpty", 400), (.topicDisallowed, "TopicDisallowed", 400),
        (.badCertificate, "BadCertificate", 403), (.badCertificateEnvironment, "BadCertificateEnvironment", 403),
        (.expiredProviderToken, "ExpiredProviderToken", 403), (.forbidden, "Forbidden", 403),
        (.invalidProviderToken, "InvalidProviderToken", 403), (.missingProviderToken, "MissingProviderToken", 403),
        (.unrelatedKeyIDInToken, "UnrelatedKeyIdInToken", 403),
        (.badEnvironmentKeyIDInToken, "BadEnvironmentKeyIdInToken", 403),
        (.badPath, "BadPath", 404), (.methodNotAllowed, "MethodNotAllowed", 405),
        (.expiredToken, "ExpiredToken", 410), (.unregistered, "Unregistered", 410),
        (.payloadTooLarge, "PayloadTooLarge", 413),
        (.tooManyProviderTokenUpdates, "TooManyProviderTokenUpdates", 429), (.tooManyRequests, "TooManyRequests", 429),
        (.internalServerError, "InternalServerError", 500),
        (.serviceUnavailable, "ServiceUnavailable", 503), (.shutdown, "Shutdown", 503),
        (.featureNotEnabled, "FeatureNotEnabled", 400), (.missingChannelID, "MissingChannelId", 400),
        (.badChannelID, "BadChannelId", 400), (.channelNotRegistered, "ChannelNotRegistered", 400),
        (.badRequestParams, "BadRequestParams", 400), (.badRequestPayload, "BadRequestPayload", 400),
        (.missingPushType, "MissingPushType", 400), (.cannotCreateChannelConfig, "CannotCreateChannelConfig", 400),
        (.topicMismatch, "TopicMismatch", 403),
    ]

    /// The wire name of every reason this version knows.
    public static var knownNames: [String] { table.map(\.name) }

    private static let byName: [String: APNsReason] = Dictionary(uniqueKeysWithValues: table.map { ($0.name, $0.reason) })

    /// Decodes the `reason` string of an APNs error body; unknown strings become ``unknown(_:)``.
    public init(name: String) {
        self = Self.byName[name] ?? .unknown(name)
    }

    /// The string APNs uses, e.g. "BadDeviceToken".
    public var name: String {
        if case .unknown(let name) = self { return name }
        return Self.table.first { $0.reason == self }!.name
    }

    /// The HTTP status APNs documents for this reason; `nil` for unknown reasons.
    public var documentedStatus: Int? {
        Self.table.first { $0.reason == self }?.status
    }

    public var description: String { name }
}
