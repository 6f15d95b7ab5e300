/// What ``JSONReader/readObject(_:)`` found: the members, and the first error if the document is not a
/// valid JSON object.
public struct JSONObjectReading: Sendable {
    /// Every member when ``error`` is nil; otherwise the members read completely before the error.
    public let members: JSONObjectMembers
    /// Why the document is not a valid JSON object, or nil.
    public let error: JSONSyntaxError?
}
