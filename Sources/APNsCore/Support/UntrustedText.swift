/// Text from outside the process (a job, a message property, a server's answer) made safe to quote in
/// an error message or a log line: control characters written as escapes, so a value can never break a
/// line or forge one, and long values cut short.
public enum UntrustedText {
    /// Whether `scalar` is a control character (Unicode category Cc: U+0000–U+001F, U+007F–U+009F) or a
    /// line or paragraph separator (U+2028, U+2029): what some reader could take for a line break.
    public static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value) || scalar.value == 0x2028 || scalar.value == 0x2029
    }

    /// Whether `text` has any character ``isControl(_:)`` refuses.
    public static func containsControl(_ text: some StringProtocol) -> Bool {
        text.unicodeScalars.contains(where: isControl)
    }

    /// Whether `text` has any character ``isControl(_:)`` refuses. Every string field of every job
    /// comes here: printable ASCII, nearly all of them, is cleared eight bytes at a time, where
    /// decoding scalars one by one cost about 3,000 instructions a job (callgrind).
    public static func containsControl(_ text: String) -> Bool {
        // `withUTF8` needs a variable: a native string lends its storage, without a copy.
        var text = text
        if text.withUTF8(isPrintableASCII) { return false }
        return text.unicodeScalars.contains(where: isControl)
    }

    /// True when every byte is in 0x20–0x7E; false sends the text to the scalar-by-scalar check.
    private static func isPrintableASCII(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let base = bytes.baseAddress else { return true }
        let lows: UInt64 = 0x0101_0101_0101_0101
        let highs: UInt64 = 0x8080_8080_8080_8080
        var offset = 0
        // A byte below 0x20: (x - 0x20…) & ~x & 0x80…; a 0x7F byte: a zero byte in x ^ 0x7F…; a byte
        // from 0x80 up: its high bit (exact as yes-or-no: "Bit Twiddling Hacks").
        while offset + 8 <= bytes.count {
            let word = UnsafeRawPointer(base + offset).loadUnaligned(as: UInt64.self)
            let deleted = word ^ (0x7F &* lows)
            if ((word &- 0x20 &* lows) & ~word | (deleted &- lows) & ~deleted | word) & highs != 0 { return false }
            offset += 8
        }
        while offset < bytes.count {
            guard (0x20..<0x7F).contains(bytes[offset]) else { return false }
            offset += 1
        }
        return true
    }

    /// `text` with a backslash written `\\`, `\n \r \t` as such and every other control character as
    /// `\u{XX}`: one line, and the original can be read back from it.
    public static func escaped(_ text: some StringProtocol) -> String {
        guard text.unicodeScalars.contains(where: { isControl($0) || $0 == "\\" }) else { return String(text) }
        var result = ""
        result.unicodeScalars.reserveCapacity(text.unicodeScalars.count + 8)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\\": result += "\\\\"
            case "\n": result += "\\n"
            case "\r": result += "\\r"
            case "\t": result += "\\t"
            case _ where isControl(scalar): result += "\\u{\(String(scalar.value, radix: 16, uppercase: true))}"
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result
    }

    /// `text` for a sentence: escaped, in double quotes, and when longer than `limit` characters cut
    /// there with its full size in bytes, e.g. `"aaaa…" (10000 bytes)`.
    public static func quoted(_ text: some StringProtocol, limit: Int = 64) -> String {
        let quoted = escaped(text.prefix(limit)).replacing("\"", with: "\\\"")
        guard text.count > limit else { return "\"\(quoted)\"" }
        return "\"\(quoted)…\" (\(text.utf8.count) bytes)"
    }
}
