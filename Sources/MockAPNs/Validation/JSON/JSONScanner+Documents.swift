/// Whole documents: the payload check and the flat objects of JWT headers and claims.
extension JSONScanner {
    /// Whether `bytes` is exactly one JSON object, with optional surrounding whitespace.
    static func isObject(_ bytes: [UInt8]) -> Bool {
        var scanner = JSONScanner(bytes)
        scanner.skipWhitespace()
        guard scanner.next == UInt8(ascii: "{"), scanner.skipValue() else { return false }
        scanner.skipWhitespace()
        return scanner.isAtEnd
    }

    /// The members of a JSON object, or `nil` if `bytes` is not one or repeats a key (a JWT whose `iss`
    /// appears twice is ambiguous, so it is refused rather than guessed at).
    static func scalarMembers(of bytes: [UInt8]) -> [String: JSONScalar]? {
        var scanner = JSONScanner(bytes)
        scanner.skipWhitespace()
        guard scanner.consume(UInt8(ascii: "{")) else { return nil }
        var members: [String: JSONScalar] = [:]
        scanner.skipWhitespace()
        if !scanner.consume(UInt8(ascii: "}")) {
            while true {
                guard scanner.next == UInt8(ascii: "\""), let key = scanner.readString() else { return nil }
                scanner.skipWhitespace()
                guard scanner.consume(UInt8(ascii: ":")) else { return nil }
                scanner.skipWhitespace()
                guard let value = scanner.scanScalar(), members.updateValue(value, forKey: key) == nil else { return nil }
                scanner.skipWhitespace()
                if scanner.consume(UInt8(ascii: "}")) { break }
                guard scanner.consume(UInt8(ascii: ",")) else { return nil }
                scanner.skipWhitespace()
            }
        }
        scanner.skipWhitespace()
        return scanner.isAtEnd ? members : nil
    }

    /// One member value: strings and integers decoded, anything else validated and skipped.
    private mutating func scanScalar() -> JSONScalar? {
        guard let first = next else { return nil }
        let start = index
        switch first {
        case UInt8(ascii: "\""):
            return readString().map(JSONScalar.string)
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            guard let isInteger = scanNumber() else { return nil }
            guard isInteger, let value = Int64(String(decoding: bytes[start..<index], as: UTF8.self)) else { return .other }
            return .integer(value)
        default:
            return skipValue(depth: 1) ? .other : nil
        }
    }
}
