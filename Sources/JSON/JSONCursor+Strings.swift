/// Strings: UTF-8 and escapes validated while scanning; text decoded only when a caller wants it.
extension JSONCursor {
    /// Where a string's content is (between its quotes) and whether it has escapes to decode.
    struct StringScan {
        let content: Range<Int>
        let hasEscapes: Bool
    }

    /// Scans the string whose opening quote is next.
    mutating func scanString() throws(JSONSyntaxError) -> StringScan {
        index += 1
        let start = index
        var hasEscapes = false
        skipPlainWords()
        while index < bytes.count {
            let byte = bytes[index]
            if byte >= 0x20, byte < 0x80, byte != UInt8(ascii: "\""), byte != UInt8(ascii: "\\") {
                index += 1  // plain ASCII, by far the most common
                continue
            }
            switch byte {
            case UInt8(ascii: "\""):
                index += 1
                return StringScan(content: start..<(index - 1), hasEscapes: hasEscapes)
            case UInt8(ascii: "\\"):
                hasEscapes = true
                try skipEscape()
                skipPlainWords()
            case 0..<0x20:
                throw error(.controlCharacterInString(byte))
            default:
                try skipUTF8Sequence()
                skipPlainWords()
            }
        }
        throw error(.unexpectedEnd)
    }

    /// Moves past the next bytes eight at a time while all eight are plain ASCII (no control
    /// character, quote, backslash or byte of a longer UTF-8 sequence): device tokens, ids and topics
    /// are nothing else, and a 64-byte token took about 1,900 instructions a byte at a time (callgrind).
    /// The byte loop of ``scanString()`` takes the rest, from the first word that is not plain.
    private mutating func skipPlainWords() {
        index += ByteWords.passingWords(UnsafeBufferPointer(rebasing: bytes[index...])) { word in
            word & ByteWords.highs == 0 && JSONStringEscaping.needsNoEscape(word: word)
        }
    }

    /// The decoded text of a scanned string.
    func text(of scan: StringScan) -> String {
        let content = UnsafeBufferPointer(rebasing: bytes[scan.content])
        guard scan.hasEscapes else { return String(decoding: content, as: UTF8.self) }
        var decoded: [UInt8] = []
        Self.decodeEscapes(content, into: &decoded)
        return String(decoding: decoded, as: UTF8.self)
    }

    /// A key for an error message: itself when short printable ASCII, else nil (never echo garbage).
    func printableKey(_ scan: StringScan) -> String? {
        let content = UnsafeBufferPointer(rebasing: bytes[scan.content])
        guard !scan.hasEscapes, content.count <= 64, content.allSatisfy({ (0x20...0x7E).contains($0) }) else { return nil }
        return String(decoding: content, as: UTF8.self)
    }

    /// Validates the escape whose backslash is next.
    private mutating func skipEscape() throws(JSONSyntaxError) {
        let start = index
        guard index + 1 < bytes.count else { throw error(.unexpectedEnd) }
        switch bytes[index + 1] {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"), UInt8(ascii: "b"), UInt8(ascii: "f"), UInt8(ascii: "n"),
            UInt8(ascii: "r"), UInt8(ascii: "t"):
            index += 2
        case UInt8(ascii: "u"):
            index += 2
            let unit = try hexQuad(escapeStart: start)
            if (0xDC00...0xDFFF).contains(unit) { throw JSONSyntaxError(.loneSurrogate, at: start) }
            guard (0xD800...0xDBFF).contains(unit) else { return }
            // A high surrogate must be followed at once by an escaped low one.
            guard index + 1 < bytes.count, bytes[index] == UInt8(ascii: "\\"), bytes[index + 1] == UInt8(ascii: "u") else {
                throw JSONSyntaxError(.loneSurrogate, at: start)
            }
            index += 2
            guard (0xDC00...0xDFFF).contains(try hexQuad(escapeStart: start)) else { throw JSONSyntaxError(.loneSurrogate, at: start) }
        default:
            throw error(.invalidEscape)
        }
    }

    private mutating func hexQuad(escapeStart: Int) throws(JSONSyntaxError) -> UInt32 {
        var value: UInt32 = 0
        for _ in 0..<4 {
            guard index < bytes.count else { throw error(.unexpectedEnd) }
            guard let digit = Self.hexValue(bytes[index]) else { throw JSONSyntaxError(.invalidEscape, at: escapeStart) }
            value = value << 4 | digit
            index += 1
        }
        return value
    }

    /// Validates one multi-byte UTF-8 sequence whose lead byte is next (RFC 3629: no overlong forms,
    /// no surrogates, nothing above U+10FFFF).
    private mutating func skipUTF8Sequence() throws(JSONSyntaxError) {
        let lead = bytes[index]
        let (length, secondRange): (Int, ClosedRange<UInt8>)
        switch lead {
        case 0xC2...0xDF: (length, secondRange) = (2, 0x80...0xBF)
        case 0xE0: (length, secondRange) = (3, 0xA0...0xBF)
        case 0xE1...0xEC, 0xEE...0xEF: (length, secondRange) = (3, 0x80...0xBF)
        case 0xED: (length, secondRange) = (3, 0x80...0x9F)
        case 0xF0: (length, secondRange) = (4, 0x90...0xBF)
        case 0xF1...0xF3: (length, secondRange) = (4, 0x80...0xBF)
        case 0xF4: (length, secondRange) = (4, 0x80...0x8F)
        default: throw error(.invalidUTF8)
        }
        guard index + length <= bytes.count, secondRange.contains(bytes[index + 1]) else { throw error(.invalidUTF8) }
        for offset in 2..<length where !(0x80...0xBF).contains(bytes[index + offset]) {
            throw error(.invalidUTF8)
        }
        index += length
    }

    /// Appends the UTF-8 of validated string content, its escapes resolved.
    static func decodeEscapes(_ content: UnsafeBufferPointer<UInt8>, into output: inout [UInt8]) {
        output.reserveCapacity(content.count)
        var index = 0
        while index < content.count {
            let byte = content[index]
            guard byte == UInt8(ascii: "\\") else {
                output.append(byte)
                index += 1
                continue
            }
            let kind = content[index + 1]
            index += 2
            switch kind {
            case UInt8(ascii: "b"): output.append(0x08)
            case UInt8(ascii: "f"): output.append(0x0C)
            case UInt8(ascii: "n"): output.append(0x0A)
            case UInt8(ascii: "r"): output.append(0x0D)
            case UInt8(ascii: "t"): output.append(0x09)
            case UInt8(ascii: "u"):
                var scalar = quad(content, at: index)
                index += 4
                if (0xD800...0xDBFF).contains(scalar) {
                    scalar = 0x10000 + ((scalar - 0xD800) << 10) + (quad(content, at: index + 2) - 0xDC00)
                    index += 6
                }
                UTF8.encode(Unicode.Scalar(scalar)!) { output.append($0) }
            default: output.append(kind)  // " \ /
            }
        }
    }

    private static func quad(_ content: UnsafeBufferPointer<UInt8>, at index: Int) -> UInt32 {
        (0..<4).reduce(0) { $0 << 4 | hexValue(content[index + $1])! }
    }

    private static func hexValue(_ byte: UInt8) -> UInt32? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): UInt32(byte - UInt8(ascii: "0"))
        case UInt8(ascii: "a")...UInt8(ascii: "f"): UInt32(byte - UInt8(ascii: "a") + 10)
        case UInt8(ascii: "A")...UInt8(ascii: "F"): UInt32(byte - UInt8(ascii: "A") + 10)
        default: nil
        }
    }
}
