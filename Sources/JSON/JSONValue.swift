/// Any JSON value, as ``JSONReader/parse(_:)`` builds it.
///
/// `true` is never a number and `1` never a boolean. Numbers written without fraction or exponent that
/// fit in 64 bits are ``integer(_:)``; every other number is ``number(_:)``.
public enum JSONValue: Hashable, Sendable {
    case null
    case bool(Bool)
    case integer(Int64)
    case number(Double)
    case string(String)
    case array([JSONValue])
    case object([String: JSONValue])

    /// The value's kind.
    public var kind: JSONKind {
        switch self {
        case .null: .null
        case .bool: .bool
        case .integer: .number(isInteger: true)
        case .number: .number(isInteger: false)
        case .string: .string
        case .array: .array
        case .object: .object
        }
    }
}
