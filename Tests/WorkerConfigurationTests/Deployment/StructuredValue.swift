/// A JSON value: what `python3` makes of a YAML file, or a Grafana dashboard as it is. Just enough
/// structure to walk manifests by key; a missing key or index reads as `.null` so paths chain.
enum StructuredValue: Sendable, Equatable, Decodable {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    case array([StructuredValue])
    case object([String: StructuredValue])

    init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
        } else if let value = try? container.decode(Bool.self) {
            self = .bool(value)
        } else if let value = try? container.decode(Double.self) {
            self = .number(value)
        } else if let value = try? container.decode(String.self) {
            self = .string(value)
        } else if let value = try? container.decode([StructuredValue].self) {
            self = .array(value)
        } else {
            self = .object(try container.decode([String: StructuredValue].self))
        }
    }

    subscript(key: String) -> StructuredValue {
        if case .object(let members) = self { members[key] ?? .null } else { .null }
    }

    subscript(index: Int) -> StructuredValue {
        if case .array(let elements) = self, elements.indices.contains(index) { elements[index] } else { .null }
    }

    var isNull: Bool { self == .null }

    var string: String? {
        if case .string(let value) = self { value } else { nil }
    }

    var bool: Bool? {
        if case .bool(let value) = self { value } else { nil }
    }

    /// A whole number, or nil for anything else (YAML `"9090"` is a string, not a number).
    var int: Int? {
        if case .number(let value) = self, value.rounded() == value { Int(value) } else { nil }
    }

    /// The elements of an array; empty for anything else.
    var array: [StructuredValue] {
        if case .array(let elements) = self { elements } else { [] }
    }

    /// The members of an object; empty for anything else.
    var members: [String: StructuredValue] {
        if case .object(let members) = self { members } else { [:] }
    }

    /// The strings of an array of strings (other elements are left out).
    var strings: [String] { array.compactMap(\.string) }

    /// This value and every value nested in it, depth first.
    var descendants: [StructuredValue] {
        switch self {
        case .array(let elements): [self] + elements.flatMap(\.descendants)
        case .object(let members): [self] + members.keys.sorted().flatMap { members[$0]!.descendants }
        default: [self]
        }
    }
}
