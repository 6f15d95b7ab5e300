/// What APNs answered to one request: accepted, or rejected with a reason.
///
/// A rejection is a value, not an error: errors are for requests whose outcome APNs never gave.
public enum APNsResponse: Hashable, Sendable {
    case accepted(APNsAcceptance)
    case rejected(APNsRejection)
}

/// A `200` answer.
public struct APNsAcceptance: Hashable, Sendable {
    /// The `apns-id` APNs echoed (or generated when the request had none).
    public let apnsID: String?
    /// `apns-unique-id`, sent in the development environment only; lets Apple's console trace delivery.
    public let uniqueID: String?

    public init(apnsID: String?, uniqueID: String?) {
        self.apnsID = apnsID
        self.uniqueID = uniqueID
    }
}

/// A non-`200` answer.
public struct APNsRejection: Hashable, Sendable {
    public let status: Int
    public let reason: APNsReason
    public let apnsID: String?
    /// For `410`: when APNs last knew the token was valid, in milliseconds since 1970.
    public let timestampMilliseconds: Int64?
    /// `Retry-After` in seconds, when the server sent one (APNs does not document it, but a 429 may carry it).
    public let retryAfterSeconds: Int?

    public init(
        status: Int,
        reason: APNsReason,
        apnsID: String? = nil,
        timestampMilliseconds: Int64? = nil,
        retryAfterSeconds: Int? = nil
    ) {
        self.status = status
        self.reason = reason
        self.apnsID = apnsID
        self.timestampMilliseconds = timestampMilliseconds
        self.retryAfterSeconds = retryAfterSeconds
    }

    /// What the sender should do about this rejection.
    public var disposition: Disposition {
        Disposition(reason: reason, status: status)
    }
}
