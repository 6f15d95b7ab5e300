import ArgumentParser
import Foundation

/// Finds the committed test fixtures the defaults name (`Tests/Fixtures/…`) from wherever `mock-apns`
/// runs: the working directory first, then the checkout the binary was built in (it lives in
/// `<checkout>/.build/<configuration>/`).
enum FixturePath {
    /// `path` as given when it exists or is absolute; else the same relative path under the nearest
    /// folder above the executable that has it.
    static func resolve(_ path: String, option: String) throws -> String {
        let files = FileManager.default
        if path.hasPrefix("/") || files.fileExists(atPath: path) { return path }
        var folder = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath().deletingLastPathComponent()
        while folder.path != "/" {
            let candidate = folder.appendingPathComponent(path).path
            if files.fileExists(atPath: candidate) { return candidate }
            folder.deleteLastPathComponent()
        }
        throw ValidationError(
            "\(option): cannot find \(path) in the working directory or above the mock-apns executable; "
                + "run it from the repository, or give --certificate, --private-key, --client-ca and --signing-key"
        )
    }
}
