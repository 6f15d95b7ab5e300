/// Base64url without padding (RFC 7515 §2), the only form JWTs use: written out, since Foundation's
/// base64 wants the alphabet translated and padding added both ways.
public enum Base64URL {
    private static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".utf8)

    /// `bytes` encoded, without padding.
    public static func encode(_ bytes: some Sequence<UInt8>) -> String {
        var output: [UInt8] = []
        var accumulator: UInt32 = 0
        var bits = 0
        for byte in bytes {
            accumulator = accumulator << 8 | UInt32(byte)
            bits += 8
            while bits >= 6 {
                bits -= 6
                output.append(alphabet[Int(accumulator >> UInt32(bits) & 0x3F)])
            }
        }
        if bits > 0 { output.append(alphabet[Int(accumulator << UInt32(6 - bits) & 0x3F)]) }
        return String(decoding: output, as: UTF8.self)
    }

    /// The bytes of `text`, or `nil` for a character outside the base64url alphabet (padding included) or a
    /// length no encoding produces.
    public static func decode(_ text: some Collection<UInt8>) -> [UInt8]? {
        guard text.count % 4 != 1 else { return nil }
        var output: [UInt8] = []
        output.reserveCapacity(text.count * 3 / 4)
        var accumulator: UInt32 = 0
        var bits = 0
        for character in text {
            guard let value = sextet(character) else { return nil }
            accumulator = (accumulator << 6) | UInt32(value)
            bits += 6
            if bits >= 8 {
                bits -= 8
                output.append(UInt8(truncatingIfNeeded: accumulator >> UInt32(bits)))
                accumulator &= (1 << UInt32(bits)) - 1
            }
        }
        return output
    }

    /// The bytes of `text` (see ``decode(_:)-(Collection<UInt8>)``).
    public static func decode(_ text: some StringProtocol) -> [UInt8]? {
        decode(Array(text.utf8))
    }

    private static func sextet(_ character: UInt8) -> UInt8? {
        switch character {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"): character - UInt8(ascii: "A")
        case UInt8(ascii: "a")...UInt8(ascii: "z"): character - UInt8(ascii: "a") + 26
        case UInt8(ascii: "0")...UInt8(ascii: "9"): character - UInt8(ascii: "0") + 52
        case UInt8(ascii: "-"): 62
        case UInt8(ascii: "_"): 63
        default: nil
        }
    }
}
