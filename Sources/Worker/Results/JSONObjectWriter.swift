/// Writes one flat JSON object straight into bytes, the way `JSONEncoder` with `.sortedKeys` and
/// `.withoutEscapingSlashes` writes one: no whitespace, absent values left out, strings escaped like
/// Foundation's `JSONWriter` (`"` and `\`, `\b \f \n \r \t`, other control characters as `\u00xx`,
/// everything else as its UTF-8 bytes).
///
/// The caller writes the fields in sorted key order; `JobResultEncodingTests` hold the output to
/// `JSONEncoder`'s byte for byte.
struct JSONObjectWriter {
    private var bytes: [UInt8] = []
    private var empty = true

    init(capacity: Int) {
        bytes.reserveCapacity(capacity)
        bytes.append(UInt8(ascii: "{"))
    }

    /// A string field, left out when `nil`.
    mutating func field(_ key: String, _ value: String?) {
        guard let value else { return }
        self.key(key)
        string(value)
    }

    /// An integer field, left out when `nil`.
    mutating func field(_ key: String, _ value: (some BinaryInteger)?) {
        guard let value else { return }
        self.key(key)
        bytes.append(contentsOf: value.description.utf8)
    }

    /// The finished object.
    consuming func finish() -> [UInt8] {
        bytes.append(UInt8(ascii: "}"))
        return bytes
    }

    private mutating func key(_ key: String) {
        if !empty { bytes.append(UInt8(ascii: ",")) }
        empty = false
        string(key)
        bytes.append(UInt8(ascii: ":"))
    }

    private mutating func string(_ value: String) {
        bytes.append(UInt8(ascii: "\""))
        var value = value
        value.withUTF8 { utf8 in
            // Runs of bytes that need no escape are copied whole.
            var mark = 0
            for (index, byte) in utf8.enumerated() where byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") {
                bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[mark..<index]))
                Self.escape(byte, into: &bytes)
                mark = index + 1
            }
            bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[mark...]))
        }
        bytes.append(UInt8(ascii: "\""))
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
