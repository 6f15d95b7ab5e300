import JSON
import Testing

/// The strict reader against Foundation's `JSONSerialization` on 120,000 generated documents, half of
/// them mutated into (mostly) invalid ones: both must accept the same documents with the same values and
/// refuse the same ones, except where the reader is stricter on purpose. Each accepted document must
/// also survive the writer (``JSONValue/encoded()``) unchanged, and its top-level members' spans must
/// hold exactly the values the tree has.
@Suite("Differential: strict reader vs Foundation")
struct JSONDifferentialTests {
    static let documentsPerBatch = 15_000

    @Test("agrees with JSONSerialization, batch by batch", arguments: 0..<8)
    func agreesWithFoundation(batch: Int) {
        var generator = DocumentGenerator(seed: 0x5EED_0000 + UInt64(batch))
        var counts: [String: Int] = [:]
        var disagreements: [String] = []
        for index in 0..<Self.documentsPerBatch {
            let document = index.isMultiple(of: 2) ? generator.document() : generator.mutated()
            let verdict = FoundationComparison.compare(document)
            switch verdict {
            case .agree(let accepted): counts[accepted ? "both accept" : "both refuse", default: 0] += 1
            case .deliberate(let name): counts["stricter: \(name)", default: 0] += 1
            case .disagree(let what): disagreements.append("\(what) — \(Self.show(document))")
            }
            if let problem = Self.selfConsistencyProblem(document) { disagreements.append("\(problem) — \(Self.show(document))") }
        }
        print("batch \(batch): \(counts.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", "))")
        #expect(disagreements.isEmpty, "\(disagreements.count) disagreements, e.g.:\n\(disagreements.prefix(5).joined(separator: "\n"))")
        // The generator must exercise both sides, or agreement means nothing.
        #expect(counts["both accept", default: 0] > Self.documentsPerBatch / 5)
        #expect(counts["both refuse", default: 0] > Self.documentsPerBatch / 5)
    }

    /// The reader's other entry points and the writer, held to `parse` on the same document.
    static func selfConsistencyProblem(_ document: [UInt8]) -> String? {
        let parsed = Result { () throws(JSONSyntaxError) in try JSONReader.parse(document) }
        let validated = Result { () throws(JSONSyntaxError) in try JSONReader.validate(document) }
        switch (parsed, validated) {
        case (.success(let value), .success(let kind)):
            guard value.kind == kind || (value.kind.isNumber && kind.isNumber) else { return "validate says \(kind), parse \(value.kind)" }
            guard (try? JSONReader.parse(value.encoded())) == value else { return "the writer's output does not read back the same" }
            return membersProblem(document, value)
        case (.failure(let a), .failure(let b)):
            return a == b ? nil : "parse fails with \(a), validate with \(b)"
        default:
            return "parse and validate disagree on validity"
        }
    }

    private static func membersProblem(_ document: [UInt8], _ value: JSONValue) -> String? {
        let reading = JSONReader.readObject(document)
        guard case .object(let members) = value else {
            return reading.error?.problem == .notAnObject(value.kind) || value.kind.isNumber ? nil : "readObject on a non-object: \(String(describing: reading.error))"
        }
        guard reading.error == nil, reading.members.count == members.count else { return "readObject fails on a valid object" }
        for (key, member) in members {
            guard let span = reading.members[key], (try? JSONReader.parse(Array(reading.members.bytes(of: span)))) == member else {
                return "the span of member \(key.debugDescription) does not hold its value"
            }
        }
        return nil
    }

    static func show(_ document: [UInt8]) -> String {
        let text = String(decoding: document.prefix(120), as: UTF8.self).debugDescription
        return document.count > 120 ? "\(text)… (\(document.count) bytes)" : text
    }
}

extension JSONKind {
    var isNumber: Bool {
        if case .number = self { return true }
        return false
    }
}
