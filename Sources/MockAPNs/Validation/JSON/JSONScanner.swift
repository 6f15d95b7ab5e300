/// A strict JSON syntax scanner (RFC 8259) over bytes that allocates nothing while skipping values.
///
/// The mock checks every payload is a JSON object; at tens of thousands of requests a second a full parse
/// into Foundation objects (`JSONSerialization`) would cost more than everything else the validator does,
/// and only the syntax matters. UTF-8 inside strings is not validated: APNs' own behaviour there is unknown.
struct JSONScanner {
    /// Deeper nesting is refused, which also bounds the recursion.
    static let maximumDepth = 64

    let bytes: [UInt8]
    var index = 0

    init(_ bytes: [UInt8]) {
        self.bytes = bytes
    }

    var isAtEnd: Bool { index == bytes.count }
    var next: UInt8? { index < bytes.count ? bytes[index] : nil }

    mutating func skipWhitespace() {
        while let byte = next, byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09 { index += 1 }
    }

    /// Consumes `byte` if it comes next.
    mutating func consume(_ byte: UInt8) -> Bool {
        guard next == byte else { return false }
        index += 1
        return true
    }

    /// Skips one value of any kind, with no whitespace before it; `false` if it is not valid JSON.
    mutating func skipValue(depth: Int = 0) -> Bool {
        switch next {
        case UInt8(ascii: "{"): skipContainer(closing: UInt8(ascii: "}"), keyed: true, depth: depth + 1)
        case UInt8(ascii: "["): skipContainer(closing: UInt8(ascii: "]"), keyed: false, depth: depth + 1)
        case UInt8(ascii: "\""): skipString()
        case UInt8(ascii: "t"): consume(literal: "true")
        case UInt8(ascii: "f"): consume(literal: "false")
        case UInt8(ascii: "n"): consume(literal: "null")
        default: scanNumber() != nil
        }
    }

    /// Skips an object or array whose opening bracket is next.
    private mutating func skipContainer(closing: UInt8, keyed: Bool, depth: Int) -> Bool {
        guard depth <= Self.maximumDepth else { return false }
        index += 1
        skipWhitespace()
        if consume(closing) { return true }
        while true {
            if keyed {
                guard next == UInt8(ascii: "\""), skipString() else { return false }
                skipWhitespace()
                guard consume(UInt8(ascii: ":")) else { return false }
                skipWhitespace()
            }
            guard skipValue(depth: depth) else { return false }
            skipWhitespace()
            if consume(closing) { return true }
            guard consume(UInt8(ascii: ",")) else { return false }
            skipWhitespace()
        }
    }

    /// Scans a number; returns whether it is an integer (no fraction, no exponent), `nil` if malformed.
    mutating func scanNumber() -> Bool? {
        _ = consume(UInt8(ascii: "-"))
        if !consume(UInt8(ascii: "0")) {
            guard let first = next, (UInt8(ascii: "1")...UInt8(ascii: "9")).contains(first) else { return nil }
            skipDigits()
        }
        var isInteger = true
        if consume(UInt8(ascii: ".")) {
            guard skipDigits() > 0 else { return nil }
            isInteger = false
        }
        if consume(UInt8(ascii: "e")) || consume(UInt8(ascii: "E")) {
            if !consume(UInt8(ascii: "+")) { _ = consume(UInt8(ascii: "-")) }
            guard skipDigits() > 0 else { return nil }
            isInteger = false
        }
        return isInteger
    }

    @discardableResult
    private mutating func skipDigits() -> Int {
        let start = index
        while let byte = next, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) { index += 1 }
        return index - start
    }

    private mutating func consume(literal: StaticString) -> Bool {
        let count = literal.utf8CodeUnitCount
        guard bytes.count - index >= count else { return false }
        for offset in 0..<count where bytes[index + offset] != literal.utf8Start[offset] { return false }
        index += count
        return true
    }
}
