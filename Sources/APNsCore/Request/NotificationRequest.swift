/// One notification to one device, validated against every rule APNs applies to `/3/device` requests.
///
/// An instance can only be built valid: the initializer checks the topic against the push type, the
/// priority against the type's rules, and the payload against its size limit, and throws
/// ``NotificationError`` naming the APNs reason the server would have answered with.
public struct NotificationRequest: Sendable {
    public private(set) var deviceToken: DeviceToken
    /// The full `apns-topic`: bundle ID plus the push type's suffix.
    public let topic: String
    public let pushType: PushType
    public let priority: NotificationPriority
    /// `nil` leaves the header out (APNs then stores the notification for a while).
    public let expiration: NotificationExpiration?
    public let collapseID: CollapseID?
    /// `nil` lets APNs generate one; callers that may retry should set it so retries share it.
    public private(set) var apnsID: APNsID?
    /// The JSON body, sent as it is.
    public let payload: [UInt8]

    /// - Parameter priority: `nil` takes the push type's default (5 for background, 10 otherwise).
    public init(
        deviceToken: DeviceToken,
        topic: String,
        pushType: PushType = .alert,
        priority: NotificationPriority? = nil,
        expiration: NotificationExpiration? = nil,
        collapseID: CollapseID? = nil,
        apnsID: APNsID? = nil,
        payload: [UInt8]
    ) throws(NotificationError) {
        if case .unknown(let value) = pushType {
            throw NotificationError(.invalidPushType, "unknown push type \(UntrustedText.quoted(value))")
        }
        try pushType.validate(topic: topic)
        let priority = priority ?? pushType.defaultPriority
        guard pushType.allows(priority) else {
            let allowed = pushType.allowedPriorities.map(\.headerValue).sorted().joined(separator: " or ")
            throw NotificationError(.badPriority, "push type \(pushType) allows priority \(allowed), not \(priority)")
        }
        guard !payload.isEmpty else {
            throw NotificationError(.payloadEmpty, "the payload is empty")
        }
        guard payload.count <= pushType.maximumPayloadSize else {
            throw NotificationError(
                .payloadTooLarge,
                "the payload has \(payload.count) bytes; push type \(pushType) allows at most \(pushType.maximumPayloadSize)"
            )
        }
        self.deviceToken = deviceToken
        self.topic = topic
        self.pushType = pushType
        self.priority = priority
        self.expiration = expiration
        self.collapseID = collapseID
        self.apnsID = apnsID
        self.payload = payload
    }

    /// The same notification to another device, under its own apns-id: a multicast job's request for
    /// each of its tokens. Nothing to check again (a token does not change what the rules allow), and
    /// the payload's storage is shared, not copied.
    public func addressed(to token: DeviceToken, apnsID: APNsID?) -> NotificationRequest {
        var copy = self
        copy.deviceToken = token
        copy.apnsID = apnsID
        return copy
    }

    /// What a request's `:path` starts with; the device token's hex follows.
    public static let pathPrefix: StaticString = "/3/device/"

    /// The request's `:path`. (A connection writes it into its header block from ``pathPrefix`` and
    /// the token, without this `String`.)
    public var path: String { "\(Self.pathPrefix)\(deviceToken.hexString)" }
}
