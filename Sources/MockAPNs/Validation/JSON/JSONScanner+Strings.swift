/// Strings: validated when skipped, decoded (escapes resolved) when a caller wants the text.
extension JSONScanner {
    /// Skips the string whose opening quote is next; `false` if it is malformed or unterminated.
    mutating func skipString() -> Bool {
        var unused: [UInt8] = []
        return scanString(into: &unused, decoding: false)
    }

    /// Reads the string whose opening quote is next, resolving escapes; `nil` if malformed or not UTF-8.
    mutating func readString() -> String? {
        var decoded: [UInt8] = []
        guard scanString(into: &decoded, decoding: true) else { return nil }
        return String(validating: decoded, as: UTF8.self)
    }

    /// Scans a string, appending its decoded UTF-8 to `output` when `decoding`.
    private mutating func scanString(into output: inout [UInt8], decoding: Bool) -> Bool {
        index += 1
        while let byte = next {
            index += 1
            switch byte {
            case UInt8(ascii: "\""):
                return true
            case UInt8(ascii: "\\"):
                guard let escaped = next else { return false }
                index += 1
                if escaped == UInt8(ascii: "u") {
                    guard let scalar = scanUnicodeEscape() else { return false }
                    if decoding { UTF8.encode(scalar) { output.append($0) } }
                } else {
                    guard let resolved = Self.simpleEscapes[escaped] else { return false }
                    if decoding { output.append(resolved) }
                }
            case 0x00..<0x20:
                return false
            default:
                if decoding { output.append(byte) }
            }
        }
        return false
    }

    private static let simpleEscapes: [UInt8: UInt8] = [
        UInt8(ascii: "\""): UInt8(ascii: "\""), UInt8(ascii: "\\"): UInt8(ascii: "\\"), UInt8(ascii: "/"): UInt8(ascii: "/"),
        UInt8(ascii: "b"): 0x08, UInt8(ascii: "f"): 0x0C, UInt8(ascii: "n"): 0x0A, UInt8(ascii: "r"): 0x0D, UInt8(ascii: "t"): 0x09,
    ]

    /// The scalar of a `\uXXXX` escape (after the `u`), joining a surrogate pair; `nil` for a lone surrogate.
    private mutating func scanUnicodeEscape() -> Unicode.Scalar? {
        guard let high = scanHexQuad() else { return nil }
        guard (0xD800...0xDBFF).contains(high) else { return Unicode.Scalar(high) }
        guard consume(UInt8(ascii: "\\")), consume(UInt8(ascii: "u")), let low = scanHexQuad(), (0xDC00...0xDFFF).contains(low)
        else { return nil }
        return Unicode.Scalar(0x10000 + ((high - 0xD800) << 10) + (low - 0xDC00))
    }

    private mutating func scanHexQuad() -> UInt32? {
        var value: UInt32 = 0
        for _ in 0..<4 {
            guard let byte = next, let digit = byte.hexDigitValue.map(UInt32.init) else { return nil }
            value = value << 4 | digit
            index += 1
        }
        return value
    }
}
