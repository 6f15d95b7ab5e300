/// The one strict JSON reader of this package (RFC 8259, UTF-8 only), for job bodies, APNs payloads and
/// provider-token claims alike.
///
/// Strict means: the grammar exactly (no trailing commas, no leading zeros, no comments), strings that
/// are valid UTF-8 with valid escapes (no lone surrogates), numbers a `Double` can hold, at most
/// ``maximumDepth`` levels of nesting, no byte-order mark, and no repeated key in any object (a
/// document whose `device_token` appears twice means two things; it is refused rather than guessed
/// at). Every error says what is wrong and at which byte.
///
/// One pass does everything: the document is validated, and what the caller asked for (a tree, only
/// the kind of the top-level value, or the top-level members' spans) is collected on the way.
public enum JSONReader {
    /// Containers nested deeper than this are refused, which also bounds the recursion.
    public static let maximumDepth = 64

    /// Parses a whole document into a tree.
    public static func parse(_ bytes: [UInt8]) throws(JSONSyntaxError) -> JSONValue {
        try read(bytes) { cursor throws(JSONSyntaxError) in try cursor.value(depth: 0, building: true) }
    }

    /// Checks a whole document without building anything; returns the kind of its top-level value.
    @discardableResult
    public static func validate(_ bytes: [UInt8]) throws(JSONSyntaxError) -> JSONKind {
        try read(bytes) { cursor throws(JSONSyntaxError) in
            cursor.skipWhitespace()
            let kind = try cursor.peekKind()
            _ = try cursor.value(depth: 0, building: false)
            return kind
        }
    }

    /// Reads a document that must be an object: the kind and byte span of each top-level member,
    /// collected while the whole document is validated (nested values included). Values are decoded
    /// only when asked for (``JSONObjectMembers/string(_:)`` and its siblings).
    ///
    /// On an error, the members read completely before it are kept (a job whose payload is broken can
    /// still be answered by its id).
    public static func readObject(_ bytes: [UInt8]) -> JSONObjectReading {
        var members: [(name: String, member: JSONMember)] = []
        // A job has about ten members: growing from empty would copy the array four times.
        members.reserveCapacity(16)
        do throws(JSONSyntaxError) {
            try read(bytes) { cursor throws(JSONSyntaxError) in try cursor.topLevelObject(into: &members) }
            return JSONObjectReading(members: JSONObjectMembers(bytes: bytes, members: members), error: nil)
        } catch {
            return JSONObjectReading(members: JSONObjectMembers(bytes: bytes, members: members), error: error)
        }
    }

    /// Runs `body` over the document's bytes, then requires nothing but whitespace after it.
    private static func read<T>(_ bytes: [UInt8], _ body: (inout JSONCursor) throws(JSONSyntaxError) -> T) throws(JSONSyntaxError) -> T {
        try bytes.withUnsafeBufferPointer { buffer throws(JSONSyntaxError) in
            var cursor = JSONCursor(buffer)
            try cursor.refuseByteOrderMark()
            let result = try body(&cursor)
            cursor.skipWhitespace()
            guard cursor.isAtEnd else { throw cursor.error(.trailingData) }
            return result
        }
    }
}
