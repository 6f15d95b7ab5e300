/// One top-level member of an object: its value's kind and where its bytes are.
public struct JSONMember: Hashable, Sendable {
    public let kind: JSONKind
    /// The value's bytes in the document, exactly as written (a string's span includes its quotes).
    public let span: Range<Int>
    /// For strings: whether the text has escapes to decode (when false, the bytes are the text).
    let hasEscapes: Bool
}
