/// A position in a document, and the grammar: every method validates what it passes over and throws a
/// ``JSONSyntaxError`` at the first byte that is wrong.
///
/// Works on the caller's buffer, so nothing is copied while reading; values are built only when asked.
struct JSONCursor {
    let bytes: UnsafeBufferPointer<UInt8>
    var index = 0
    /// The keys of every object being read, innermost last: one array for the whole document, so
    /// checking keys for repeats allocates nothing per object.
    var openKeys: [StringScan] = []

    init(_ bytes: UnsafeBufferPointer<UInt8>) {
        self.bytes = bytes
        openKeys.reserveCapacity(32)  // room for a job's keys and its payload's, allocated once
    }

    var isAtEnd: Bool { index == bytes.count }

    /// An error at the current position.
    func error(_ problem: JSONSyntaxError.Problem) -> JSONSyntaxError {
        JSONSyntaxError(problem, at: index)
    }

    mutating func refuseByteOrderMark() throws(JSONSyntaxError) {
        if bytes.count >= 3, bytes[0] == 0xEF, bytes[1] == 0xBB, bytes[2] == 0xBF { throw error(.byteOrderMark) }
    }

    mutating func skipWhitespace() {
        while index < bytes.count {
            switch bytes[index] {
            case 0x20, 0x0A, 0x0D, 0x09: index += 1
            default: return
            }
        }
    }

    /// The kind of the value that starts here (after whitespace), without reading it.
    func peekKind() throws(JSONSyntaxError) -> JSONKind {
        guard index < bytes.count else { throw error(.unexpectedEnd) }
        switch bytes[index] {
        case UInt8(ascii: "{"): return .object
        case UInt8(ascii: "["): return .array
        case UInt8(ascii: "\""): return .string
        case UInt8(ascii: "t"), UInt8(ascii: "f"): return .bool
        case UInt8(ascii: "n"): return .null
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return .number(isInteger: true)
        case let byte: throw error(.unexpectedByte(byte))
        }
    }

    /// Reads one value (after optional whitespace) inside containers nested `depth` deep. Returns it
    /// when `building`, else `.null` (having validated it all the same).
    mutating func value(depth: Int, building: Bool) throws(JSONSyntaxError) -> JSONValue {
        skipWhitespace()
        guard index < bytes.count else { throw error(.unexpectedEnd) }
        switch bytes[index] {
        case UInt8(ascii: "{"):
            return try object(depth: depth + 1, building: building)
        case UInt8(ascii: "["):
            return try array(depth: depth + 1, building: building)
        case UInt8(ascii: "\""):
            let scan = try scanString()
            return building ? .string(text(of: scan)) : .null
        case UInt8(ascii: "t"):
            try literal("true")
            return .bool(true)
        case UInt8(ascii: "f"):
            try literal("false")
            return .bool(false)
        case UInt8(ascii: "n"):
            try literal("null")
            return .null
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            let scan = try scanNumber()
            return building ? numberValue(scan) : .null
        case let byte:
            throw error(.unexpectedByte(byte))
        }
    }

    /// The document's top-level value, which must be an object: each member's kind and span.
    mutating func topLevelObject(into members: inout [(name: String, member: JSONMember)]) throws(JSONSyntaxError) {
        skipWhitespace()
        let kind = try peekKind()
        guard kind == .object else {
            _ = try value(depth: 0, building: false)  // a syntax error in it comes first
            throw JSONSyntaxError(.notAnObject(kind), at: 0)
        }
        try readMembers(depth: 1) { cursor, key, _ throws(JSONSyntaxError) in
            cursor.skipWhitespace()
            let start = cursor.index
            let member: JSONMember
            switch try cursor.peekKind() {
            case .string:
                let scan = try cursor.scanString()
                member = JSONMember(kind: .string, span: start..<cursor.index, hasEscapes: scan.hasEscapes)
            case .number:
                let scan = try cursor.scanNumber()
                member = JSONMember(kind: .number(isInteger: scan.isInteger), span: start..<cursor.index, hasEscapes: false)
            case let kind:
                _ = try cursor.value(depth: 1, building: false)
                member = JSONMember(kind: kind, span: start..<cursor.index, hasEscapes: false)
            }
            members.append((cursor.text(of: key), member))
        }
    }

    private mutating func object(depth: Int, building: Bool) throws(JSONSyntaxError) -> JSONValue {
        var members: [String: JSONValue] = [:]
        try readMembers(depth: depth) { cursor, key, keyStart throws(JSONSyntaxError) in
            let member = try cursor.value(depth: depth, building: building)
            // Keys are told apart by their bytes, but a `String` key by canonical equivalence: a tree
            // would silently keep one of two members whose names differ only there.
            guard building, members.updateValue(member, forKey: cursor.text(of: key)) != nil else { return }
            throw JSONSyntaxError(.equivalentKey(cursor.printableKey(key)), at: keyStart)
        }
        return building ? .object(members) : .null
    }

    /// Reads an object whose `{` is next, calling `readValue` after each key and its colon; refuses a
    /// key that repeats one of the same object.
    private mutating func readMembers(
        depth: Int,
        _ readValue: (inout JSONCursor, StringScan, Int) throws(JSONSyntaxError) -> Void
    ) throws(JSONSyntaxError) {
        guard depth <= JSONReader.maximumDepth else { throw error(.tooDeep(limit: JSONReader.maximumDepth)) }
        index += 1
        var keys = ObjectKeys(first: openKeys.count)
        defer { openKeys.removeSubrange(keys.first...) }
        skipWhitespace()
        if try consume(UInt8(ascii: "}")) { return }
        while true {
            skipWhitespace()
            guard index < bytes.count else { throw error(.unexpectedEnd) }
            guard bytes[index] == UInt8(ascii: "\"") else { throw error(.unexpectedByte(bytes[index])) }
            let keyStart = index
            let key = try scanString()
            guard keys.insert(key, into: &self) else {
                throw JSONSyntaxError(.duplicateKey(printableKey(key)), at: keyStart)
            }
            skipWhitespace()
            guard try consume(UInt8(ascii: ":")) else { throw error(.unexpectedByte(bytes[index])) }
            try readValue(&self, key, keyStart)
            skipWhitespace()
            if try consume(UInt8(ascii: ",")) { continue }
            guard try consume(UInt8(ascii: "}")) else { throw error(.unexpectedByte(bytes[index])) }
            return
        }
    }

    private mutating func array(depth: Int, building: Bool) throws(JSONSyntaxError) -> JSONValue {
        guard depth <= JSONReader.maximumDepth else { throw error(.tooDeep(limit: JSONReader.maximumDepth)) }
        index += 1
        var elements: [JSONValue] = []
        skipWhitespace()
        if try consume(UInt8(ascii: "]")) { return building ? .array(elements) : .null }
        while true {
            let element = try value(depth: depth, building: building)
            if building { elements.append(element) }
            skipWhitespace()
            if try consume(UInt8(ascii: ",")) { continue }
            guard try consume(UInt8(ascii: "]")) else { throw error(.unexpectedByte(bytes[index])) }
            return building ? .array(elements) : .null
        }
    }

    /// Consumes `byte` if it comes next; throws at the end of the document.
    private mutating func consume(_ byte: UInt8) throws(JSONSyntaxError) -> Bool {
        guard index < bytes.count else { throw error(.unexpectedEnd) }
        guard bytes[index] == byte else { return false }
        index += 1
        return true
    }

    private mutating func literal(_ word: StaticString) throws(JSONSyntaxError) {
        for offset in 0..<word.utf8CodeUnitCount {
            guard index < bytes.count else { throw error(.unexpectedEnd) }
            guard bytes[index] == word.utf8Start[offset] else { throw error(.unexpectedByte(bytes[index])) }
            index += 1
        }
    }
}
