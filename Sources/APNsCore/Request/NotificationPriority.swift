/// The `apns-priority` header.
public enum NotificationPriority: Int, Hashable, Sendable, CaseIterable, CustomStringConvertible {
    /// 10: deliver immediately (the default for everything but background).
    case immediate = 10
    /// 5: deliver with the device's power considerations in mind (required for background).
    case conservePower = 5
    /// 1: prioritise power over everything and do not wake the device.
    case low = 1

    /// Decodes a header value; anything but "10", "5" or "1" is `BadPriority`.
    public init(headerValue: String) throws(NotificationError) {
        guard let value = Int(headerValue), let priority = NotificationPriority(rawValue: value) else {
            throw NotificationError(.badPriority, "priority must be 10, 5 or 1, not \(UntrustedText.quoted(headerValue))")
        }
        self = priority
    }

    public var headerValue: String { String(rawValue) }
    public var description: String { headerValue }
}
