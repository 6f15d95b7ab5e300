/// The type of a JSON value, for spans and error messages.
public enum JSONKind: Hashable, Sendable, CustomStringConvertible {
    case object
    case array
    case string
    /// `isInteger`: written without fraction or exponent.
    case number(isInteger: Bool)
    case bool
    case null

    /// The type's name with its article, for sentences ("must be a string, not an array").
    public var description: String {
        switch self {
        case .object: "an object"
        case .array: "an array"
        case .string: "a string"
        case .number: "a number"
        case .bool: "a boolean"
        case .null: "null"
        }
    }
}
