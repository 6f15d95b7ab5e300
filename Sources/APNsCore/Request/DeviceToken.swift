/// A device token as APNs issues it: hexadecimal with an even number of digits, of any length.
///
/// Tokens are commonly 32 bytes, but longer ones exist (54 bytes and more have been seen), so no length
/// is assumed beyond a sanity cap. `description` shows only a prefix, so a token never reaches a log whole.
public struct DeviceToken: Hashable, Sendable, CustomStringConvertible, CustomDebugStringConvertible {
    /// The longest token accepted, in bytes; far above anything APNs issues, it only bounds `:path`.
    public static let maximumByteCount = 512

    /// The token as lowercase hexadecimal, exactly as it goes into `/3/device/<token>`.
    public let hexString: String

    /// The number of bytes the token encodes.
    public var byteCount: Int { hexString.utf8.count / 2 }

    /// Validates `hex` (either case; surrounding whitespace is not trimmed) and normalises it to lowercase.
    public init(hex: String) throws(NotificationError) {
        let digits = hex.utf8
        guard !digits.isEmpty else {
            throw NotificationError(.badDeviceToken, "the device token is empty")
        }
        guard digits.allSatisfy(\.isHexDigit) else {
            throw NotificationError(.badDeviceToken, "the device token has characters other than hexadecimal digits")
        }
        guard digits.count % 2 == 0 else {
            throw NotificationError(.badDeviceToken, "the device token has an odd number of hex digits (\(digits.count))")
        }
        guard digits.count / 2 <= Self.maximumByteCount else {
            throw NotificationError(.badDeviceToken, "the device token is longer than \(Self.maximumByteCount) bytes")
        }
        hexString = hex.lowercased()
    }

    /// The first eight hex digits and the length: enough to correlate, too little to push to.
    public var redacted: String { "\(hexString.prefix(8))…(\(byteCount)B)" }

    public var description: String { redacted }
    public var debugDescription: String { "DeviceToken(\(redacted))" }
}

extension UInt8 {
    var isHexDigit: Bool {
        (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(self)
            || (UInt8(ascii: "a")...UInt8(ascii: "f")).contains(self)
            || (UInt8(ascii: "A")...UInt8(ascii: "F")).contains(self)
    }
}
