internal import JSON

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
        // A byte from 0x80 up shows as its own high bit.
        ByteWords.all(bytes) { word in
            (ByteWords.below(0x20, in: word) | ByteWords.equal(to: 0x7F, in: word) | word & ByteWords.highs) == 0
        } byte: { byte in
            (0x20..<0x7F).contains(byte)
        }
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
