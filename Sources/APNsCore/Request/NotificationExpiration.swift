/// The `apns-expiration` header: until when APNs stores and retries the notification.
public enum NotificationExpiration: Hashable, Sendable, CustomStringConvertible {
    /// `0`: one delivery attempt, nothing stored.
    case immediately
    /// Stored and retried until this UNIX time, in seconds.
    case at(epochSeconds: Int64)

    /// Builds the value for a UNIX time; `0` means `immediately`, negative times are `BadExpirationDate`.
    public init(epochSeconds: Int64) throws(NotificationError) {
        guard epochSeconds >= 0 else {
            throw NotificationError(.badExpirationDate, "expiration must be a UNIX time in seconds, not \(epochSeconds)")
        }
        self = epochSeconds == 0 ? .immediately : .at(epochSeconds: epochSeconds)
    }

    /// Decodes a header value: decimal digits only.
    public init(headerValue: String) throws(NotificationError) {
        guard !headerValue.isEmpty, headerValue.utf8.allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }),
            let seconds = Int64(headerValue)
        else {
            throw NotificationError(.badExpirationDate, "expiration must be a UNIX time in seconds, not \(UntrustedText.quoted(headerValue))")
        }
        try self.init(epochSeconds: seconds)
    }

    public var epochSeconds: Int64 {
        switch self {
        case .immediately: 0
        case .at(let seconds): seconds
        }
    }

    public var headerValue: String { String(epochSeconds) }
    public var description: String { headerValue }
}
