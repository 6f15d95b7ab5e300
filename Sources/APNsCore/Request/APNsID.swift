#if canImport(Glibc)
internal import Glibc
#elseif canImport(Darwin)
internal import Darwin
#endif

/// The `apns-id` header: a canonical, lowercase UUID (8-4-4-4-12 hex digits) naming one notification.
public struct APNsID: Hashable, Sendable, CustomStringConvertible {
    public let value: String

    /// Accepts only the canonical lowercase form, as APNs does; anything else is `BadMessageId`.
    public init(_ value: String) throws(NotificationError) {
        guard Self.isCanonical(value) else {
            throw NotificationError(.badMessageID, "apns-id must be a lowercase UUID (8-4-4-4-12 hex digits), not \(UntrustedText.quoted(value))")
        }
        self.value = value
    }

    /// Formats 16 bytes as a UUID string, stamping the version and RFC 4122 variant bits.
    ///
    /// - Parameter version: 4 for random bytes, 8 for bytes derived from a name (e.g. a job id).
    public init(bytes: [UInt8], version: UInt8) {
        precondition(bytes.count == 16, "a UUID has 16 bytes")
        self = bytes.withUnsafeBytes { APNsID(uuidBytes: $0, version: version) }
    }

    /// ``init(bytes:version:)`` from the first 16 bytes of `uuidBytes`, read in place.
    public init(uuidBytes: UnsafeRawBufferPointer, version: UInt8) {
        precondition(uuidBytes.count >= 16, "a UUID has 16 bytes")
        // Written in place: every job derives one, and temporary arrays per byte showed in profiles.
        value = String(unsafeUninitializedCapacity: 36) { text in
            var position = 0
            for index in 0..<16 {
                var byte = uuidBytes[index]
                if index == 6 { byte = (byte & 0x0F) | (version << 4) }
                if index == 8 { byte = (byte & 0x3F) | 0x80 }
                if index == 4 || index == 6 || index == 8 || index == 10 {
                    text[position] = UInt8(ascii: "-")
                    position += 1
                }
                text[position] = Self.hexDigit(byte >> 4)
                text[position + 1] = Self.hexDigit(byte & 0x0F)
                position += 2
            }
            return position
        }
    }

    private static func hexDigit(_ nibble: UInt8) -> UInt8 {
        nibble < 10 ? UInt8(ascii: "0") + nibble : UInt8(ascii: "a") + nibble - 10
    }

    /// A new random (version 4) identifier.
    public static func random() -> APNsID {
        // One 16-byte draw: each draw is a `getrandom` system call, and the standard generator makes
        // one per 8 bytes. (The mock stamps every accepted push with one.)
        var bytes = [UInt8](repeating: 0, count: 16)
        bytes.withUnsafeMutableBytes { arc4random_buf($0.baseAddress!, $0.count) }
        return APNsID(bytes: bytes, version: 4)
    }

    /// A new random (version 4) identifier drawn from `generator`: for callers that make many and
    /// need them unique rather than unpredictable.
    public static func random(using generator: inout some RandomNumberGenerator) -> APNsID {
        let (high, low) = (generator.next(), generator.next())
        return APNsID(bytes: (0..<16).map { UInt8(truncatingIfNeeded: ($0 < 8 ? high : low) >> (($0 % 8) * 8)) }, version: 4)
    }

    public var description: String { value }

    private static func isCanonical(_ value: String) -> Bool {
        let bytes = Array(value.utf8)
        guard bytes.count == 36 else { return false }
        for (index, byte) in bytes.enumerated() {
            if [8, 13, 18, 23].contains(index) {
                guard byte == UInt8(ascii: "-") else { return false }
            } else {
                guard (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || (UInt8(ascii: "a")...UInt8(ascii: "f")).contains(byte)
                else { return false }
            }
        }
        return true
    }
}
