/// The `apns-collapse-id` header: notifications with the same one replace each other on the device.
public struct CollapseID: Hashable, Sendable, CustomStringConvertible {
    /// APNs' limit, in bytes of UTF-8.
    public static let maximumByteCount = 64

    public let value: String

    /// Accepts a non-empty identifier of at most 64 UTF-8 bytes.
    public init(_ value: String) throws(NotificationError) {
        guard !value.isEmpty else {
            throw NotificationError(.badCollapseID, "the collapse id is empty")
        }
        guard value.utf8.count <= Self.maximumByteCount else {
            throw NotificationError(.badCollapseID, "the collapse id has \(value.utf8.count) bytes; APNs allows at most \(Self.maximumByteCount)")
        }
        self.value = value
    }

    public var description: String { value }
}
