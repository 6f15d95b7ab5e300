/// One header field, with how HPACK may store it.
public struct HTTP2Header: Hashable, Sendable {
    public var name: String
    public var value: String
    /// When true the field is sent as a literal "never indexed" (RFC 7541 §6.2.3): for values that change
    /// with every request (`:path` with a device token) or are secret (`authorization`).
    public var neverIndexed: Bool

    public init(_ name: String, _ value: String, neverIndexed: Bool = false) {
        self.name = name
        self.value = value
        self.neverIndexed = neverIndexed
    }
}

extension Array where Element == HTTP2Header {
    /// The first value of `name` (names are lower-case in HTTP/2).
    public func value(of name: String) -> String? {
        first { $0.name == name }?.value
    }
}
