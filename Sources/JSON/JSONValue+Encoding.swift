extension JSONValue {
    /// The value as compact JSON, object keys sorted by their UTF-8 bytes (as `.sortedKeys` sorts them),
    /// so equal values always encode to equal bytes. Non-finite numbers, which JSON cannot carry, are
    /// written as `null`.
    public func encoded() -> [UInt8] {
        var bytes: [UInt8] = []
        append(to: &bytes, indent: nil)
        return bytes
    }

    /// ``encoded()`` for people to read: each array element and object member on its own line,
    /// indented by two spaces a level (empty arrays and objects stay `[]` and `{}`).
    public func encodedForReading() -> [UInt8] {
        var bytes: [UInt8] = []
        append(to: &bytes, indent: 0)
        return bytes
    }

    /// Appends the value; `indent` is the current level when writing for people, nil for compact.
    private func append(to bytes: inout [UInt8], indent: Int?) {
        func newline(_ level: Int) {
            guard indent != nil else { return }
            bytes.append(UInt8(ascii: "\n"))
            bytes.append(contentsOf: repeatElement(UInt8(ascii: " "), count: 2 * level))
        }
        let inner = indent.map { $0 + 1 }
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
                newline(inner ?? 0)
                element.append(to: &bytes, indent: inner)
            }
            if !elements.isEmpty { newline(indent ?? 0) }
            bytes.append(UInt8(ascii: "]"))
        case .object(let members):
            bytes.append(UInt8(ascii: "{"))
            for (index, key) in members.keys.sorted(by: { $0.utf8.lexicographicallyPrecedes($1.utf8) }).enumerated() {
                if index > 0 { bytes.append(UInt8(ascii: ",")) }
                newline(inner ?? 0)
                JSONStringEscaping.append(key, to: &bytes)
                bytes.append(contentsOf: indent == nil ? [UInt8(ascii: ":")] : [UInt8(ascii: ":"), UInt8(ascii: " ")])
                members[key]!.append(to: &bytes, indent: inner)
            }
            if !members.isEmpty { newline(indent ?? 0) }
            bytes.append(UInt8(ascii: "}"))
        }
    }
}
