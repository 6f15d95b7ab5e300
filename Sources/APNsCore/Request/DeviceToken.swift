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
        // One pass over contiguous bytes, and a lowercased copy only when needed: every job and every
        // request the mock checks comes through here.
        var hex = hex
        let (count, allHex, hasUppercase) = hex.withUTF8 { digits in
            var allHex = true
            var hasUppercase = false
            for byte in digits {
                switch byte {
                case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "a")...UInt8(ascii: "f"): continue
                case UInt8(ascii: "A")...UInt8(ascii: "F"): hasUppercase = true
                default: allHex = false
                }
            }
            return (digits.count, allHex, hasUppercase)
        }
        guard count > 0 else {
            throw NotificationError(.badDeviceToken, "the device token is empty")
        }
        guard allHex else {
            throw NotificationError(.badDeviceToken, "the device token has characters other than hexadecimal digits")
        }
        guard count % 2 == 0 else {
            throw NotificationError(.badDeviceToken, "the device token has an odd number of hex digits (\(count))")
        }
        guard count / 2 <= Self.maximumByteCount else {
            throw NotificationError(.badDeviceToken, "the device token is longer than \(Self.maximumByteCount) bytes")
        }
        hexString = hasUppercase ? hex.lowercased() : hex
    }

    /// The first eight hex digits and the length: enough to correlate, too little to push to.
    public var redacted: String { "\(hexString.prefix(8))…(\(byteCount)B)" }

    public var description: String { redacted }
    public var debugDescription: String { "DeviceToken(\(redacted))" }
}
