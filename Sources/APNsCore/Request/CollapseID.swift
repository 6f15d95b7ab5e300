/// The `apns-collapse-id` header: notifications with the same one replace each other on the device.
public struct CollapseID: Hashable, Sendable, CustomStringConvertible {
    /// APNs' limit, in bytes of UTF-8.
    public static let maximumByteCount = 64

    public let value: String

    /// Accepts a non-empty identifier of at most 64 UTF-8 bytes that can travel as an HTTP/2 header
    /// value: no control characters (RFC 9113 §8.2.1 forbids NUL, CR and LF; strict servers end the
    /// whole connection for one) and no space or tab at either end.
    public init(_ value: String) throws(NotificationError) {
        guard !value.isEmpty else {
            throw NotificationError(.badCollapseID, "the collapse id is empty")
        }
        guard value.utf8.count <= Self.maximumByteCount else {
            throw NotificationError(.badCollapseID, "the collapse id has \(value.utf8.count) bytes; APNs allows at most \(Self.maximumByteCount)")
        }
        guard !UntrustedText.containsControl(value) else {
            throw NotificationError(.badCollapseID, "the collapse id has a control character, which an HTTP/2 header cannot carry")
        }
        guard let first = value.utf8.first, let last = value.utf8.last, ![0x20, 0x09].contains(first), ![0x20, 0x09].contains(last) else {
            throw NotificationError(.badCollapseID, "the collapse id starts or ends with a space, which an HTTP/2 header cannot carry")
        }
        self.value = value
    }

    public var description: String { value }
}
