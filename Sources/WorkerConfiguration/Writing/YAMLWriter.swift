import APNsCore

/// Lines of a YAML document: block sections of `key: value`, with values already written as YAML
/// (scalars double-quoted where they are text, so no name, path or URL is read as anything else).
struct YAMLWriter {
    private(set) var text = ""

    mutating func line(_ line: String) {
        text += line + "\n"
    }

    /// `name:` and its entries, indented.
    mutating func section(_ name: String, _ entries: [(String, String)]) {
        line("\(name):")
        for (key, value) in entries { line("  \(key): \(value)") }
    }

    /// One entry of a block list, its keys aligned under the first.
    mutating func listItem(_ entries: [(String, String)]) {
        for (index, (key, value)) in entries.enumerated() {
            line((index == 0 ? "  - " : "    ") + "\(key): \(value)")
        }
    }

    /// A double-quoted scalar: backslashes and quotes escaped, and every character some reader could
    /// take for a line break (``UntrustedText/isControl(_:)``) as YAML's `\uXXXX`.
    static func quoted(_ text: String) -> String {
        var escaped = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": escaped += "\\\""
            case "\\": escaped += "\\\\"
            case _ where UntrustedText.isControl(scalar):
                let hex = String(scalar.value, radix: 16, uppercase: true)
                escaped += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: escaped.unicodeScalars.append(scalar)
            }
        }
        return escaped + "\""
    }

    static func optionalQuoted(_ text: String?) -> String { text.map(quoted) ?? "null" }

    static func optional(_ number: Int?) -> String { number.map { "\($0)" } ?? "null" }

    /// `[a, b]`: a flow list of values already written.
    static func list(_ values: [String]) -> String { "[" + values.joined(separator: ", ") + "]" }

    /// `{key: value, …}`: a flow mapping of values already written.
    static func flow(_ entries: [(String, String)]) -> String {
        "{" + entries.map { "\($0.0): \($0.1)" }.joined(separator: ", ") + "}"
    }
}
