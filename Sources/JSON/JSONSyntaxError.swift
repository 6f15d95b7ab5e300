/// Why a document is not the JSON this package accepts, and where: a clear, specific message for a
/// producer to fix, which never quotes more of the document than a short printable key.
public struct JSONSyntaxError: Error, Hashable, Sendable, CustomStringConvertible {
    public enum Problem: Hashable, Sendable {
        /// The document ends inside a value (or is empty).
        case unexpectedEnd
        /// A byte that cannot start or continue a value here.
        case unexpectedByte(UInt8)
        /// A UTF-8 byte-order mark at the start (RFC 8259 §8.1: senders must not add one).
        case byteOrderMark
        /// Bytes in a string that are not UTF-8 (overlong forms, surrogates, stray continuation bytes...).
        case invalidUTF8
        /// A control character (U+0000 to U+001F) written raw in a string instead of escaped.
        case controlCharacterInString(UInt8)
        /// A backslash followed by something that is not an escape.
        case invalidEscape
        /// A `\u` escape of half a surrogate pair.
        case loneSurrogate
        /// Not a number by RFC 8259's grammar (leading zeros, a bare minus, a dot with no digits...).
        case invalidNumber
        /// A number too large for a 64-bit float (1e400).
        case numberOutOfRange
        /// Containers nested deeper than the limit.
        case tooDeep(limit: Int)
        /// The same key twice in one object; the key is kept when it is short printable ASCII.
        case duplicateKey(String?)
        /// In a tree (``JSONReader/parse(_:)``), a key whose bytes differ from an earlier key of the
        /// object but whose text is canonically equivalent to it (`\u212A`, the Kelvin sign, and `K`):
        /// the tree, keyed by `String`, could keep only one of the two. The readers that keep members
        /// by their bytes accept both.
        case equivalentKey(String?)
        /// More than whitespace after the value.
        case trailingData
        /// A valid document whose top-level value is not an object, where one is required.
        case notAnObject(JSONKind)
    }

    public let problem: Problem
    /// The byte at which the problem was found (0-based).
    public let offset: Int

    public init(_ problem: Problem, at offset: Int) {
        self.problem = problem
        self.offset = offset
    }

    public var description: String {
        switch problem {
        case .unexpectedEnd: "the document ends unexpectedly at byte \(offset)"
        case .unexpectedByte(let byte): "unexpected \(Self.describe(byte)) at byte \(offset)"
        case .byteOrderMark: "a byte-order mark at the start (JSON must not have one)"
        case .invalidUTF8: "invalid UTF-8 at byte \(offset)"
        case .controlCharacterInString(let byte): "control character \(Self.describe(byte)) not escaped in a string at byte \(offset)"
        case .invalidEscape: "invalid escape sequence at byte \(offset)"
        case .loneSurrogate: "a \\u escape of a lone surrogate at byte \(offset)"
        case .invalidNumber: "invalid number at byte \(offset)"
        case .numberOutOfRange: "number out of range at byte \(offset)"
        case .tooDeep(let limit): "nested deeper than \(limit) levels at byte \(offset)"
        case .duplicateKey(let key?): "duplicate key \"\(key)\" at byte \(offset)"
        case .duplicateKey(nil): "duplicate key at byte \(offset)"
        case .equivalentKey(let key?): "key \"\(key)\" at byte \(offset) is canonically equivalent to an earlier key of its object"
        case .equivalentKey(nil): "a key at byte \(offset) is canonically equivalent to an earlier key of its object"
        case .trailingData: "unexpected data after the value at byte \(offset)"
        case .notAnObject(let kind): "the document is \(kind), not an object"
        }
    }

    /// A byte as a reader wants to see it: 'x' when printable ASCII, 0xNN otherwise.
    private static func describe(_ byte: UInt8) -> String {
        (0x21...0x7E).contains(byte) ? "'\(Character(Unicode.Scalar(byte)))'" : "byte 0x\(byte < 16 ? "0" : "")\(String(byte, radix: 16, uppercase: true))"
    }
}
