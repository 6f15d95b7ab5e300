import TestSupport
import Foundation

/// The JSON examples of the Markdown documentation: every ```json block, sorted into jobs and results.
struct DocumentationExamples {
    /// One JSON object from a code block, with where it was found.
    struct Example {
        let location: String
        let object: [String: Any]
        let text: [UInt8]
    }

    var jobs: [Example] = []
    var results: [Example] = []
    /// Blocks marked json that are not JSON (as a whole, nor line by line).
    var unreadable: [String] = []

    /// The documentation files whose examples are checked, relative to the package root.
    static var files: [String] {
        let docs = Fixtures.repository.appendingPathComponent("docs")
        let pages = (try? FileManager.default.contentsOfDirectory(atPath: docs.path)) ?? []
        return ["README.md", "config/README.md"] + pages.filter { $0.hasSuffix(".md") }.sorted().map { "docs/\($0)" }
    }

    /// A placeholder the README writes for a device token, replaced by a well-formed token so the
    /// rest of the example can be checked.
    static let placeholders = [#""<hex>""#: #""\#(String(repeating: "ab", count: 32))""#]

    init(file: String) throws {
        let text = try String(contentsOf: Fixtures.repository.appendingPathComponent(file), encoding: .utf8)
        for (line, block) in Self.jsonBlocks(in: text) {
            let location = "\(file):\(line)"
            guard let values = Self.values(in: block) else {
                unreadable.append(location)
                continue
            }
            for (text, value) in values {
                guard let object = value as? [String: Any] else { continue }
                let example = Example(location: location, object: object, text: text)
                if Self.isResult(object) {
                    results.append(example)
                } else if object["device_token"] != nil {
                    jobs.append(example)
                }
            }
        }
    }

    /// A result carries a status and when it completed; a job (which may also carry device_token) never does.
    static func isResult(_ object: [String: Any]) -> Bool {
        object["status"] != nil || object["completed_at"] != nil
    }

    /// The contents of every ```json fence, with the line number of its opening fence.
    static func jsonBlocks(in text: String) -> [(line: Int, text: String)] {
        var blocks: [(Int, String)] = []
        var current: (line: Int, lines: [Substring])?
        for (index, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            if var block = current {
                if trimmed.hasPrefix("```") {
                    blocks.append((block.line, block.lines.joined(separator: "\n")))
                    current = nil
                } else {
                    block.lines.append(line)
                    current = block
                }
            } else if trimmed.hasPrefix("```json") {
                current = (index + 1, [])
            }
        }
        return blocks
    }

    /// The block's JSON values: the block as one document (an array counts as its elements), else each
    /// non-blank line as one (JSON Lines); nil if it is neither.
    static func values(in block: String) -> [([UInt8], Any)]? {
        var block = block
        for (placeholder, value) in placeholders { block = block.replacingOccurrences(of: placeholder, with: value) }
        if let value = try? JSONSerialization.jsonObject(with: Data(block.utf8)) {
            if let array = value as? [Any] {
                return try? array.map { element in
                    (Array(try JSONSerialization.data(withJSONObject: element, options: [.sortedKeys])), element)
                }
            }
            return [(Array(block.utf8), value)]
        }
        var values: [([UInt8], Any)] = []
        for line in block.split(separator: "\n") where !line.trimmingCharacters(in: .whitespaces).isEmpty {
            guard let value = try? JSONSerialization.jsonObject(with: Data(line.utf8)) else { return nil }
            values.append((Array(line.utf8), value))
        }
        return values
    }
}
