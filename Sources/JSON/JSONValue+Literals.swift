/// Literals for values built in code (a command's output, a definitions document):
/// `["status": "delivered", "http_status": 200]`.
extension JSONValue: ExpressibleByStringLiteral, ExpressibleByIntegerLiteral, ExpressibleByBooleanLiteral,
    ExpressibleByFloatLiteral, ExpressibleByArrayLiteral, ExpressibleByDictionaryLiteral
{
    public init(stringLiteral value: String) { self = .string(value) }
    public init(integerLiteral value: Int64) { self = .integer(value) }
    public init(booleanLiteral value: Bool) { self = .bool(value) }
    public init(floatLiteral value: Double) { self = .number(value) }
    public init(arrayLiteral elements: JSONValue...) { self = .array(elements) }
    public init(dictionaryLiteral members: (String, JSONValue)...) {
        self = .object(Dictionary(members, uniquingKeysWith: { _, last in last }))
    }

    /// `text` as a string, or nil: for optional fields (`object["apns_id"] = JSONValue(acceptance.apnsID)`).
    public init?(_ text: String?) {
        guard let text else { return nil }
        self = .string(text)
    }

    /// `number` as an integer, or nil.
    public init?(_ number: (some BinaryInteger)?) {
        guard let number else { return nil }
        self = .integer(Int64(number))
    }
}
