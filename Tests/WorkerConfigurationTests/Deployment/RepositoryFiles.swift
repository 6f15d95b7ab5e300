import Foundation
import Testing
import TestSupport

/// The deployment files of this checkout, found from `Tests/Fixtures` (not the working directory).
enum RepositoryFiles {
    /// The folders whose YAML the deployment tests cover.
    static let deploymentFolders = ["docker", "deploy"]

    static func url(_ relative: String) -> URL {
        Sample.repositoryRoot.appendingPathComponent(relative)
    }

    static func text(_ relative: String) throws -> String {
        try String(contentsOf: url(relative), encoding: .utf8)
    }

    /// Every `.yaml` / `.yml` file under `folders`, as sorted paths relative to the repository root.
    static func yamlFiles(under folders: [String] = deploymentFolders) -> [String] {
        folders.flatMap { folder -> [String] in
            let paths = FileManager.default.enumerator(atPath: url(folder).path)?.compactMap { $0 as? String } ?? []
            return paths.filter { $0.hasSuffix(".yaml") || $0.hasSuffix(".yml") }.map { "\(folder)/\($0)" }
        }.sorted()
    }

    /// The files in one folder whose names end with `suffix`, sorted.
    static func files(in folder: String, endingWith suffix: String) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: url(folder).path).filter { $0.hasSuffix(suffix) }.sorted()
    }

    /// Every YAML document of a file (`---` separated), parsed by PyYAML and handed over as JSON.
    static func yamlDocuments(_ relative: String) throws -> [StructuredValue] {
        try yamlDocuments(of: [relative])[0]
    }

    /// The YAML documents of each file, in one python3 run (each run costs tens of milliseconds).
    static func yamlDocuments(of files: [String]) throws -> [[StructuredValue]] {
        let script = """
            import json, sys, yaml
            parsed = []
            for path in sys.argv[1:]:
                try:
                    with open(path, encoding="utf-8") as f:
                        parsed.append(list(yaml.safe_load_all(f)))
                except Exception as error:
                    sys.exit(f"{path}: {error}")
            json.dump(parsed, sys.stdout, default=str)
            """
        let run = try ProcessRun.blocking("python3", ["-c", script] + files.map { url($0).path })
        guard run.status == 0 else {
            throw ParseFailure(file: files.joined(separator: ", "), message: run.transcript)
        }
        return try JSONDecoder().decode([[StructuredValue]].self, from: Data(run.output.utf8))
    }

    /// The one document of a single-document YAML file.
    static func yamlDocument(_ relative: String) throws -> StructuredValue {
        let documents = try yamlDocuments(relative)
        guard documents.count == 1 else {
            throw ParseFailure(file: relative, message: "expected one YAML document, found \(documents.count)")
        }
        return documents[0]
    }

    /// A JSON file as it is.
    static func json(_ relative: String) throws -> StructuredValue {
        try JSONDecoder().decode(StructuredValue.self, from: Data(contentsOf: url(relative)))
    }

    /// A file that python3 or JSONDecoder could not read.
    struct ParseFailure: Error, CustomStringConvertible {
        let file: String
        let message: String
        var description: String { "\(file): \(message)" }
    }
}
