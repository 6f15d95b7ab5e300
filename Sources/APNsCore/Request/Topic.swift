/// The rules for an `apns-topic` value beyond its push type's suffix: what a bundle id may be made of.
///
/// Apple allows letters, digits, hyphens and periods in bundle ids (underscores appear in some old
/// ones); MDM topics (`com.apple.mgmt.External.<UUID>`) fit the same set. Anything else — spaces,
/// control characters, non-ASCII text — cannot name an app, and some of it cannot even travel in an
/// HTTP/2 header, so it is refused before it reaches a connection.
public enum Topic {
    /// The longest topic accepted, in bytes (bundle ids are at most 155 characters).
    public static let maximumByteCount = 255

    /// Checks `topic`'s length and characters; `BadTopic` names the first offending byte.
    public static func validate(_ topic: String) throws(NotificationError) {
        let count = topic.utf8.count
        guard count <= maximumByteCount else {
            throw NotificationError(.topicMismatch, "the topic has \(count) bytes; at most \(maximumByteCount) are allowed")
        }
        if let offset = topic.utf8.firstIndex(where: { !isAllowed($0) }).map({ topic.utf8.distance(from: topic.utf8.startIndex, to: $0) }) {
            throw NotificationError(.topicMismatch, "the topic may hold only A-Z, a-z, 0-9, '.', '-' and '_', but byte \(offset) is not one of them")
        }
    }

    static func isAllowed(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
            UInt8(ascii: "."), UInt8(ascii: "-"), UInt8(ascii: "_"):
            true
        default:
            false
        }
    }
}
