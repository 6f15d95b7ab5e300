extension JSONValue {
    /// The value as compact JSON, object keys sorted by their UTF-8 bytes (as `.sortedKeys` sorts them),
    /// so equal values always encode to equal bytes. Non-finite numbers, which JSON cannot carry, are
    /// written as `null`.
    public func encoded() -> [UInt8] {
        var bytes: [UInt8] = []
        append(to: &bytes)
        return bytes
    }

    private func append(to bytes: inout [UInt8]) {
        switch self {
        case .null: bytes.append(contentsOf: "null".utf8)
        case .bool(let flag): bytes.append(contentsOf: (flag ? "true" : "false").utf8)
        case .integer(let value): bytes.append(contentsOf: String(value).utf8)
        case .number(let value): bytes.append(contentsOf: (value.isFinite ? "\(value)" : "null").utf8)
        case .string(let text): JSONStringEscaping.append(text, to: &bytes)
        case .array(let elements):
            bytes.append(UInt8(ascii: "["))
            for (index, element) in elements.enumerated() {
                if index > 0 { bytes.append(UInt8(ascii: ",")) }
                element.append(to: &bytes)
            }
            bytes.append(UInt8(ascii: "]"))
        case .object(let members):
            bytes.append(UInt8(ascii: "{"))
            for (index, key) in members.keys.sorted(by: { $0.utf8.lexicographicallyPrecedes($1.utf8) }).enumerated() {
                if index > 0 { bytes.append(UInt8(ascii: ",")) }
                JSONStringEscaping.append(key, to: &bytes)
                bytes.append(UInt8(ascii: ":"))
                members[key]!.append(to: &bytes)
            }
            bytes.append(UInt8(ascii: "}"))
        }
    }
}
