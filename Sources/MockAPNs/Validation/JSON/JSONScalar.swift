/// A member value of a flat JSON object, as far as JWT headers and claims need to tell values apart.
enum JSONScalar: Hashable, Sendable {
    case string(String)
    /// A number written without fraction or exponent that fits in 64 bits.
    case integer(Int64)
    /// Anything else that is valid JSON: other numbers, `true`, `false`, `null`, arrays, objects.
    case other
}
