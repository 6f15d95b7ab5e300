/// A broadcast channel's id, as APNs returns it in `apns-channel-id` when the channel is created.
///
/// Apple documents it as base64 text and says not to assume a size, so only what a header can carry
/// is checked: base64 characters (either alphabet, with padding), at most ``maximumLength``.
public struct ChannelID: Hashable, Sendable, CustomStringConvertible {
    /// Far above any id APNs issues (they are a few dozen characters); it only bounds a header.
    public static let maximumLength = 1024

    public let value: String

    public init(_ value: String) throws(NotificationError) {
        guard !value.isEmpty else { throw NotificationError(.missingChannelID, "the channel id is empty") }
        guard value.utf8.count <= Self.maximumLength else {
            throw NotificationError(.badChannelID, "the channel id has \(value.utf8.count) bytes; at most \(Self.maximumLength) are accepted")
        }
        guard value.utf8.allSatisfy(Self.isBase64) else {
            throw NotificationError(.badChannelID, "the channel id must be base64 text, not \(UntrustedText.quoted(value))")
        }
        self.value = value
    }

    private static func isBase64(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"): true
        case UInt8(ascii: "+"), UInt8(ascii: "/"), UInt8(ascii: "="), UInt8(ascii: "-"), UInt8(ascii: "_"): true
        default: false
        }
    }

    public var description: String { value }
}

/// What a broadcast channel keeps for devices that subscribe later, fixed when the channel is created.
public enum MessageStoragePolicy: Int, Hashable, Sendable, CaseIterable, CustomStringConvertible {
    /// Nothing is stored: broadcasts to the channel must have `apns-expiration: 0`.
    case noMessageStored = 0
    /// The most recent broadcast is stored (for up to 8 hours).
    case mostRecentMessageStored = 1

    public var description: String {
        switch self {
        case .noMessageStored: "0 (no message stored)"
        case .mostRecentMessageStored: "1 (most recent message stored)"
        }
    }
}
