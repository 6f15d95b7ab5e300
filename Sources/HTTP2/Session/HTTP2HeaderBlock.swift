/// A header block laid out as nghttp2 reads it: every name and value in one byte buffer, and where
/// each field lies in it. Values are checked as they are copied in, so a block knows whether it can
/// be sent without a second pass over its fields.
///
/// A client builds the fields that never change on a connection (`:method`, `:scheme`,
/// `:authority`) once, then for each request keeps them with ``removeFields(after:)`` and appends the
/// rest: no `String` per field and no array of ``HTTP2Header``s per request.
public struct HTTP2HeaderBlock: Sendable {
    struct Field: Sendable {
        var nameStart: Int
        var nameCount: Int
        var valueStart: Int
        var valueCount: Int
        var neverIndexed: Bool
    }

    private(set) var bytes: [UInt8] = []
    private(set) var fields: [Field] = []
    /// The first field the quick checks did not clear; the full rules decide whether it is really
    /// refused (they accept a tab inside a value, which the quick check does not).
    private var firstUncleared: Int?

    public init() {}

    /// A block of `headers`, names and values both checked.
    public init(_ headers: [HTTP2Header]) {
        for header in headers { append(name: header.name, value: header.value, neverIndexed: header.neverIndexed) }
    }

    /// How many fields the block holds.
    public var count: Int { fields.count }

    /// Why the block cannot be sent, or nil: the first problem ``HTTP2HeaderRules`` finds among its
    /// fields. Never quotes a value.
    public var problem: String? {
        guard let firstUncleared else { return nil }
        for index in firstUncleared..<fields.count {
            if let problem = HTTP2HeaderRules.problem(with: header(at: index)) { return problem }
        }
        return nil
    }

    /// The fields as ``HTTP2Header``s (for tests and logs of a refused block, not the send path).
    public var headers: [HTTP2Header] { fields.indices.map(header(at:)) }

    /// Keeps the first `count` fields and drops the rest, keeping the storage.
    public mutating func removeFields(after count: Int) {
        guard count < fields.count else { return }
        bytes.removeSubrange(fields[count].nameStart...)
        fields.removeSubrange(count...)
        if let uncleared = firstUncleared, uncleared >= count { firstUncleared = nil }
    }

    /// Reserves room for `fields` fields of `bytes` bytes in all.
    public mutating func reserveCapacity(fields: Int, bytes: Int) {
        self.fields.reserveCapacity(fields)
        self.bytes.reserveCapacity(bytes)
    }

    /// Appends a field whose name is a literal in this program's code: it is checked only in debug
    /// builds, where the tests run every such name.
    public mutating func append(_ name: StaticString, _ value: String, neverIndexed: Bool = false) {
        append(name, prefix: "", value, neverIndexed: neverIndexed)
    }

    /// Appends a field whose value is `prefix` followed by `value` (a `:path`, without joining them
    /// into a new `String` first).
    public mutating func append(_ name: StaticString, prefix: StaticString, _ value: String, neverIndexed: Bool = false) {
        var value = value
        value.withUTF8 { append(name, prefix: prefix, $0, neverIndexed: neverIndexed) }
    }

    /// Appends a field whose value is valid by its type's construction: a device token's hex digits,
    /// an apns-id's UUID, a provider token (`bearer` and base64url). The quick check of the value is
    /// skipped in release builds and asserted in debug ones, where the tests run: these are the longest
    /// values of a push (about 280 of its bytes), and the check was a fifth of writing its headers.
    /// Package-only: a caller outside it could hand nghttp2 unchecked bytes in a release build.
    package mutating func append(_ name: StaticString, prefix: StaticString = "", trusted value: String, neverIndexed: Bool = false) {
        var value = value
        value.withUTF8 { value in
            assert(HTTP2HeaderRules.hasOnlyFieldBytes(value), "the value of \(name) breaks the field rules")
            append(name, prefix: prefix, value, neverIndexed: neverIndexed, checked: false)
        }
    }

    /// Appends a field whose value is `number` in decimal, written straight into the block.
    public mutating func append(_ name: StaticString, decimal number: Int64) {
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 20) { digits in
            var start = digits.count
            var rest = number.magnitude
            repeat {
                start -= 1
                digits[start] = UInt8(ascii: "0") + UInt8(rest % 10)
                rest /= 10
            } while rest > 0
            let text = UnsafeBufferPointer(rebasing: digits[start...])
            append(name, prefix: number < 0 ? "-" : "", text, neverIndexed: false)
        }
    }

    /// Appends a field whose name comes from elsewhere (a peer, a caller's dictionary): both checked.
    public mutating func append(name: String, value: String, neverIndexed: Bool = false) {
        let index = fields.count
        let nameStart = bytes.count
        var name = name
        let isName = name.withUTF8 { name in
            bytes.append(contentsOf: name)
            return HTTP2HeaderRules.isName(name)
        }
        var value = value
        value.withUTF8 { appendValue(prefix: "", $0, nameStart: nameStart, neverIndexed: neverIndexed) }
        if !isName, firstUncleared == nil { firstUncleared = index }
    }

    /// Calls `body` with the block's storage and where each field lies in it (the pointer is valid
    /// only during `body`).
    func withFields<T, E: Error>(_ body: (UnsafeBufferPointer<UInt8>, ArraySlice<Field>) throws(E) -> T) throws(E) -> T {
        try bytes.withUnsafeBufferPointer { storage throws(E) in try body(storage, fields[...]) }
    }

    private mutating func append(_ name: StaticString, prefix: StaticString, _ value: UnsafeBufferPointer<UInt8>, neverIndexed: Bool, checked: Bool = true) {
        assert(name.withUTF8Buffer { HTTP2HeaderRules.isName($0) }, "\(name) is not a header name")
        let nameStart = bytes.count
        name.withUTF8Buffer { bytes.append(contentsOf: $0) }
        appendValue(prefix: prefix, value, nameStart: nameStart, neverIndexed: neverIndexed, checked: checked)
    }

    /// Appends `prefix` and `value` after the name already written at `nameStart`, and records the
    /// field that spans them. The quick check looks at `value` alone: a prefix is a literal of ours,
    /// and a value the check refuses only for where it stands (a leading space after the prefix) is
    /// then cleared by the full rules.
    private mutating func appendValue(prefix: StaticString, _ value: UnsafeBufferPointer<UInt8>, nameStart: Int, neverIndexed: Bool, checked: Bool = true) {
        let valueStart = bytes.count
        prefix.withUTF8Buffer { bytes.append(contentsOf: $0) }
        bytes.append(contentsOf: value)
        if checked, firstUncleared == nil, !HTTP2HeaderRules.hasOnlyFieldBytes(value) { firstUncleared = fields.count }
        fields.append(
            Field(nameStart: nameStart, nameCount: valueStart - nameStart, valueStart: valueStart, valueCount: bytes.count - valueStart, neverIndexed: neverIndexed)
        )
    }

    private func header(at index: Int) -> HTTP2Header {
        let field = fields[index]
        return HTTP2Header(
            String(decoding: bytes[field.nameStart..<field.nameStart + field.nameCount], as: UTF8.self),
            String(decoding: bytes[field.valueStart..<field.valueStart + field.valueCount], as: UTF8.self),
            neverIndexed: field.neverIndexed
        )
    }
}
