/// How this package writes a JSON string, exactly as Foundation's `JSONWriter` does with
/// `.withoutEscapingSlashes`: `"` and `\`, then `\b \f \n \r \t`, other control characters as `\u00xx`,
/// everything else as its UTF-8 bytes. A Swift string is always valid Unicode, so the output is always
/// valid JSON, whatever text it carries.
public enum JSONStringEscaping {
    /// Appends `text` as a quoted, escaped JSON string.
    public static func append(_ text: String, to bytes: inout [UInt8]) {
        bytes.append(UInt8(ascii: "\""))
        var text = text
        text.withUTF8 { utf8 in
            // Nearly every string a worker writes (ids, tokens, topics, keys) needs no escape at all.
            if needsNoEscape(utf8) {
                bytes.append(contentsOf: utf8)
                return
            }
            // Runs of bytes that need no escape are copied whole.
            var mark = 0
            for (index, byte) in utf8.enumerated() where mustEscape(byte) {
                bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[mark..<index]))
                escape(byte, into: &bytes)
                mark = index + 1
            }
            bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[mark...]))
        }
        bytes.append(UInt8(ascii: "\""))
    }

    /// True when `utf8` holds no control character, `"` or `\\`, checked eight bytes at a time: a
    /// byte-by-byte scan was the larger part of writing a result (callgrind, docs/decisions.md).
    static func needsNoEscape(_ utf8: UnsafeBufferPointer<UInt8>) -> Bool {
        ByteWords.all(utf8, word: needsNoEscape(word:)) { !mustEscape($0) }
    }

    /// True when none of the eight bytes of `word` is a control character, `"` or `\\`: what the
    /// writer must escape and the reader must look at.
    static func needsNoEscape(word: UInt64) -> Bool {
        let quote = ByteWords.equal(to: UInt8(ascii: "\""), in: word)
        let backslash = ByteWords.equal(to: UInt8(ascii: "\\"), in: word)
        return (ByteWords.below(0x20, in: word) | quote | backslash) == 0
    }

    /// A control character, `"` or `\\`: what JSON cannot carry raw.
    private static func mustEscape(_ byte: UInt8) -> Bool {
        byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\")
    }

    private static func escape(_ byte: UInt8, into bytes: inout [UInt8]) {
        bytes.append(UInt8(ascii: "\\"))
        switch byte {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"): bytes.append(byte)
        case 0x08: bytes.append(UInt8(ascii: "b"))
        case 0x0C: bytes.append(UInt8(ascii: "f"))
        case 0x0A: bytes.append(UInt8(ascii: "n"))
        case 0x0D: bytes.append(UInt8(ascii: "r"))
        case 0x09: bytes.append(UInt8(ascii: "t"))
        default:
            let hex = Array("0123456789abcdef".utf8)
            bytes.append(contentsOf: [UInt8(ascii: "u"), UInt8(ascii: "0"), UInt8(ascii: "0"), hex[Int(byte >> 4)], hex[Int(byte & 0xF)]])
        }
    }
}
