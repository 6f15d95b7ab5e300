import Foundation
import TestSupport

/// Command-line tools the deployment checks run (`python3` with PyYAML, `yamllint`, `shellcheck`,
/// `kubectl`), found on `PATH` as `scripts/install-deps.sh` installs them.
enum ExternalTool {
    /// What a finished run printed, and how it exited.
    struct Run: Sendable {
        let status: Int32
        let output: String
        let errors: String

        /// Both streams, for a failure message.
        var transcript: String { [output, errors].filter { !$0.isEmpty }.joined(separator: "\n") }
    }

    /// Whether `name` is an executable somewhere on `PATH`.
    static func isAvailable(_ name: String) -> Bool {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        return path.split(separator: ":").contains { FileManager.default.isExecutableFile(atPath: "\($0)/\(name)") }
    }

    /// Whether `python3` can `import yaml` (Debian's python3-yaml).
    static let hasPythonYAML: Bool = isAvailable("python3") && (try? run("python3", ["-c", "import yaml"]).status) == 0

    /// Runs `name` with `arguments` in `directory` and waits for it.
    ///
    /// Output goes to temporary files rather than pipes, so a chatty tool never blocks on a full pipe.
    static func run(_ name: String, _ arguments: [String], in directory: URL? = nil) throws -> Run {
        let outputPath = try TemporaryFile.write("", mode: 0o600)
        let errorsPath = try TemporaryFile.write("", mode: 0o600)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = [name] + arguments
        if let directory { process.currentDirectoryURL = directory }
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = FileHandle(forWritingAtPath: outputPath)
        process.standardError = FileHandle(forWritingAtPath: errorsPath)
        try process.run()
        process.waitUntilExit()
        return Run(
            status: process.terminationStatus,
            output: try String(contentsOfFile: outputPath, encoding: .utf8),
            errors: try String(contentsOfFile: errorsPath, encoding: .utf8)
        )
    }
}
