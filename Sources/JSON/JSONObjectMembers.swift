#if canImport(Glibc)
internal import Glibc
#elseif canImport(Darwin)
internal import Darwin
#endif

/// The top-level members of a JSON object with their spans in the document; values are decoded on
/// demand, so members nobody asks for cost nothing beyond their validation.
public struct JSONObjectMembers: Sendable {
    /// The whole document.
    public let bytes: [UInt8]
    /// In the document's order, names unique (the reader refuses a repeated one).
    let members: [(name: String, member: JSONMember)]
    /// The members by name's bytes (as the lookup compares them), for an object too large to scan
    /// (see ``largestScanned``).
    private let index: [[UInt8]: Int]?

    /// Objects with up to this many members are searched in order. A job has about ten, and a
    /// decoder asks for some fifteen names: comparing short names costs less than hashing each one
    /// (the dictionary was 3,700 instructions a job under callgrind, a tenth of decoding it).
    static let largestScanned = 32

    init(bytes: [UInt8], members: [(name: String, member: JSONMember)]) {
        self.bytes = bytes
        self.members = members
        index = members.count > Self.largestScanned
            ? Dictionary(members.enumerated().map { (Array($1.name.utf8), $0) }, uniquingKeysWith: { first, _ in first }) : nil
    }

    /// The member named `name` (after its escapes are decoded), or nil.
    public subscript(name: String) -> JSONMember? {
        if let index { return index[Array(name.utf8)].map { members[$0].member } }
        // By bytes, as the reader refuses repeated names: `==` would also match a canonically
        // equivalent spelling (U+212A for "K"), another name the object may hold as well. Lengths
        // first: most names differ in length, which a string stores, while comparing two different
        // strings called into the runtime 50 times a job (callgrind).
        let length = name.utf8.count
        return members.first { $0.name.utf8.count == length && $0.name == name && Self.sameBytes($0.name, name) }?.member
    }

    /// Whether two strings have the same UTF-8 bytes, asked only of names `==` found equal (a string
    /// equal to itself byte for byte is also equal by `==`, and two identical short strings are
    /// compared in one step). Through each string's own storage: `elementsEqual` on the two UTF-8
    /// views stepped through an iterator, 150 instructions a call.
    private static func sameBytes(_ a: String, _ b: String) -> Bool {
        let same = a.utf8.withContiguousStorageIfAvailable { first in
            b.utf8.withContiguousStorageIfAvailable { second in
                first.count == second.count && (first.isEmpty || memcmp(first.baseAddress!, second.baseAddress!, first.count) == 0)
            }
        }
        return (same ?? nil) ?? a.utf8.elementsEqual(b.utf8)
    }

    /// How many members there are.
    public var count: Int { members.count }

    /// The bytes of `member`'s value exactly as written in the document.
    public func bytes(of member: JSONMember) -> ArraySlice<UInt8> { bytes[member.span] }

    /// The text of a string member, its escapes decoded; nil for any other kind.
    public func string(_ member: JSONMember) -> String? {
        guard member.kind == .string else { return nil }
        let content = (member.span.lowerBound + 1)..<(member.span.upperBound - 1)
        guard member.hasEscapes else { return String(decoding: bytes[content], as: UTF8.self) }
        return bytes.withUnsafeBufferPointer { buffer in
            var decoded: [UInt8] = []
            JSONCursor.decodeEscapes(UnsafeBufferPointer(rebasing: buffer[content]), into: &decoded)
            return String(decoding: decoded, as: UTF8.self)
        }
    }

    /// The value of a number member written as an integer that fits in 64 bits; nil otherwise.
    public func integer(_ member: JSONMember) -> Int64? {
        guard member.kind == .number(isInteger: true) else { return nil }
        return Int64(String(decoding: bytes[member.span], as: UTF8.self))
    }

    /// The value of any number member (the reader has checked it is finite); nil for other kinds.
    public func double(_ member: JSONMember) -> Double? {
        guard case .number = member.kind else { return nil }
        return Double(String(decoding: bytes[member.span], as: UTF8.self))
    }

    /// The value of a boolean member; nil for other kinds.
    public func bool(_ member: JSONMember) -> Bool? {
        guard member.kind == .bool else { return nil }
        return bytes[member.span.lowerBound] == UInt8(ascii: "t")
    }
}
