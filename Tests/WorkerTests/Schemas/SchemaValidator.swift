import TestSupport
import Foundation

/// Validates JSON documents against `schemas/*.schema.json` with Python's jsonschema (draft 2020-12,
/// format checking on), through `validate.py` next to this file.
enum SchemaValidator {
    enum Schema: String, CaseIterable, CustomStringConvertible, Sendable {
        case job, result

        var path: String { Fixtures.repository.appendingPathComponent("schemas/\(rawValue).schema.json").path }
        var description: String { "\(rawValue).schema.json" }
    }

    static let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("validate.py").path

    /// Checks the schema, then `documents` (each one JSON text, sent as they are in one JSON array).
    /// Succeeds only if the schema and every document are valid; `errors` lists each problem.
    static func validate(_ documents: [[UInt8]], against schema: Schema) async throws -> ProcessRun {
        var input: [UInt8] = []
        if !documents.isEmpty {
            input = Array("[\n".utf8) + Array(documents.joined(separator: Array(",\n".utf8))) + Array("\n]\n".utf8)
        }
        return try await ProcessRun.run("/usr/bin/python3", [script, schema.path], input: input, timeout: .seconds(60))
    }

    /// One document, given as text exactly as it would arrive (it need not be JSON at all).
    static func validate(_ document: String, against schema: Schema) async throws -> ProcessRun {
        try await ProcessRun.run("/usr/bin/python3", [script, schema.path], input: Array(document.utf8), timeout: .seconds(60))
    }

    /// The schema as a JSON object, for checks made in Swift.
    static func load(_ schema: Schema) throws -> [String: Any] {
        let data = try Data(contentsOf: URL(fileURLWithPath: schema.path))
        guard let object = try JSONSerialization.jsonObject(with: data) as? [String: Any] else {
            throw SchemaTestError("\(schema) is not a JSON object")
        }
        return object
    }
}

struct SchemaTestError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
