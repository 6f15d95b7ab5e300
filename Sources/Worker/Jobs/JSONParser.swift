/// A small strict JSON parser for job bodies (RFC 8259), straight from bytes to ``JSONValue``.
///
/// Foundation's JSONDecoder into an "any JSON" enum costs a thrown error per failed type guess and
/// was a third of the worker's CPU; this parser reads each value once. Nesting is limited to 64 levels.
struct JSONParser {
    struct Failure: Error {}

    private let bytes: [UInt8]
    /// Containers nested deeper than this are checked but not built.
    private let keptDepth: Int
    private var index = 0
    private var depth = 0

    /// Parses a whole document; anything but whitespace after the value is an error.
    ///
    /// Containers nested deeper than `keptDepth` (the document's own object or array is depth 1) are
    /// checked as strictly as the rest but come back empty, with nothing in them built: a job's reader
    /// needs only its top-level fields, and building its notification payload's dictionaries and
    /// strings cost more than everything else the parser does.
    static func parse(_ bytes: [UInt8], keptDepth: Int = .max) throws(Failure) -> JSONValue {
        var parser = JSONParser(bytes: bytes, keptDepth: keptDepth)
        let value = try parser.value()
        parser.skipWhitespace()
        guard parser.index == bytes.count else { throw Failure() }
        return value
    }

    private init(bytes: [UInt8], keptDepth: Int) {
        self.bytes = bytes
        self.keptDepth = keptDepth
    }

    /// Whether values in the current container are built.
    private var keeping: Bool { depth <= keptDepth }

    private mutating func value() throws(Failure) -> JSONValue {
        skipWhitespace()
        guard index < bytes.count else { throw Failure() }
        switch bytes[index] {
        case UInt8(ascii: "{"): return try object()
        case UInt8(ascii: "["): return try array()
        case UInt8(ascii: "\""): return .string(try string(building: keeping))
        case UInt8(ascii: "t"): try literal("true"); return .bool(true)
        case UInt8(ascii: "f"): try literal("false"); return .bool(false)
        case UInt8(ascii: "n"): try literal("null"); return .null
        default: return try number(converting: keeping)
        }
    }

    private mutating func object() throws(Failure) -> JSONValue {
        try enter()
        let keep = keeping
        index += 1
        var members: [String: JSONValue] = [:]
        // A job has about ten keys: growing from empty would rehash the dictionary four times.
        if keep { members.reserveCapacity(12) }
        skipWhitespace()
        if peek(UInt8(ascii: "}")) {
            index += 1
            depth -= 1
            return .object(members)
        }
        while true {
            skipWhitespace()
            guard peek(UInt8(ascii: "\"")) else { throw Failure() }
            let key = try string(building: keep)
            skipWhitespace()
            guard peek(UInt8(ascii: ":")) else { throw Failure() }
            index += 1
            let member = try value()
            if keep { members[key] = member }
            skipWhitespace()
            guard index < bytes.count else { throw Failure() }
            if bytes[index] == UInt8(ascii: ",") { index += 1; continue }
            guard bytes[index] == UInt8(ascii: "}") else { throw Failure() }
            index += 1
            depth -= 1
            return .object(members)
        }
    }

    private mutating func array() throws(Failure) -> JSONValue {
        try enter()
        let keep = keeping
        index += 1
        var elements: [JSONValue] = []
        skipWhitespace()
        if peek(UInt8(ascii: "]")) {
            index += 1
            depth -= 1
            return .array(elements)
        }
        while true {
            let element = try value()
            if keep { elements.append(element) }
            skipWhitespace()
            guard index < bytes.count else { throw Failure() }
            if bytes[index] == UInt8(ascii: ",") { index += 1; continue }
            guard bytes[index] == UInt8(ascii: "]") else { throw Failure() }
            index += 1
            depth -= 1
            return .array(elements)
        }
    }

    /// A string's text; checked but not built (empty) unless `building`.
    private mutating func string(building: Bool) throws(Failure) -> String {
        index += 1  // the opening quote
        var scalars: [UInt8] = []
        let start = index
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "\"") {
                let text = !building ? "" : scalars.isEmpty ? String(decoding: bytes[start..<index], as: UTF8.self) : String(decoding: scalars, as: UTF8.self)
                index += 1
                return text
            }
            guard byte >= 0x20 else { throw Failure() }  // control characters must be escaped
            if byte == UInt8(ascii: "\\") {
                if scalars.isEmpty { scalars.append(contentsOf: bytes[start..<index]) }
                try escape(into: &scalars)
            } else {
                if !scalars.isEmpty { scalars.append(byte) }
                index += 1
            }
        }
        throw Failure()
    }

    private mutating func escape(into output: inout [UInt8]) throws(Failure) {
        index += 1
        guard index < bytes.count else { throw Failure() }
        let kind = bytes[index]
        index += 1
        switch kind {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): output.append(kind)
        case UInt8(ascii: "b"): output.append(0x08)
        case UInt8(ascii: "f"): output.append(0x0C)
        case UInt8(ascii: "n"): output.append(0x0A)
        case UInt8(ascii: "r"): output.append(0x0D)
        case UInt8(ascii: "t"): output.append(0x09)
        case UInt8(ascii: "u"):
            var scalar = try hexQuad()
            if (0xD800..<0xDC00).contains(scalar) {
                // A high surrogate must be followed by an escaped low one.
                guard index + 1 < bytes.count, bytes[index] == UInt8(ascii: "\\"), bytes[index + 1] == UInt8(ascii: "u") else { throw Failure() }
                index += 2
                let low = try hexQuad()
                guard (0xDC00..<0xE000).contains(low) else { throw Failure() }
                scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
            }
            guard let unicode = Unicode.Scalar(scalar) else { throw Failure() }
            output.append(contentsOf: Array(String(Character(unicode)).utf8))
        default: throw Failure()
        }
    }

    private mutating func hexQuad() throws(Failure) -> UInt32 {
        guard index + 4 <= bytes.count else { throw Failure() }
        var value: UInt32 = 0
        for byte in bytes[index..<(index + 4)] {
            guard let digit = UInt32(String(UnicodeScalar(byte)), radix: 16) else { throw Failure() }
            value = value << 4 | digit
        }
        index += 4
        return value
    }

    /// A number; checked but left as 0 unless `converting`.
    private mutating func number(converting: Bool) throws(Failure) -> JSONValue {
        let start = index
        if peek(UInt8(ascii: "-")) { index += 1 }
        guard index < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[index]) else { throw Failure() }
        // No leading zeros: "0" alone, or 1-9 then digits.
        if bytes[index] == UInt8(ascii: "0") { index += 1 } else { skipDigits() }
        var integral = true
        if peek(UInt8(ascii: ".")) {
            integral = false
            index += 1
            guard digitFollows() else { throw Failure() }
            skipDigits()
        }
        if peek(UInt8(ascii: "e")) || peek(UInt8(ascii: "E")) {
            integral = false
            index += 1
            if peek(UInt8(ascii: "+")) || peek(UInt8(ascii: "-")) { index += 1 }
            guard digitFollows() else { throw Failure() }
            skipDigits()
        }
        guard converting else { return .integer(0) }
        let text = String(decoding: bytes[start..<index], as: UTF8.self)
        if integral, let value = Int64(text) { return .integer(value) }
        guard let value = Double(text) else { throw Failure() }
        return .number(value)
    }

    private mutating func literal(_ word: StaticString) throws(Failure) {
        let count = word.utf8CodeUnitCount
        guard index + count <= bytes.count else { throw Failure() }
        for offset in 0..<count where bytes[index + offset] != word.utf8Start[offset] { throw Failure() }
        index += count
    }

    private mutating func enter() throws(Failure) {
        depth += 1
        guard depth <= 64 else { throw Failure() }
    }

    private mutating func skipWhitespace() {
        while index < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[index]) { index += 1 }
    }

    private mutating func skipDigits() {
        while index < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[index]) { index += 1 }
    }

    private func digitFollows() -> Bool {
        index < bytes.count && (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[index])
    }

    private func peek(_ byte: UInt8) -> Bool {
        index < bytes.count && bytes[index] == byte
    }
}
