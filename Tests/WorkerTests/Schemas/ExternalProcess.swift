import Foundation
import TestSupport

/// Runs a program to completion without blocking a thread: standard input from a file, output to files
/// (so a chatty program can never fill a pipe and hang), killed if it outlives `timeout`.
struct ExternalProcess {
    struct Outcome: Sendable {
        let status: Int32
        let output: String
        let errors: String
        var succeeded: Bool { status == 0 }
        /// Both streams, for failure messages.
        var transcript: String { "exit status \(status)\n--- stdout\n\(output)\n--- stderr\n\(errors)" }
    }

    static let python = "/usr/bin/python3"

    /// The root of this checkout (where `schemas/`, `examples/` and `docs/` are).
    static let packageRoot: URL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent()  // Schemas
        .deletingLastPathComponent()  // WorkerTests
        .deletingLastPathComponent()  // Tests
        .deletingLastPathComponent()

    static func run(_ executable: String, _ arguments: [String], input: [UInt8] = [], timeout: Duration = .seconds(120)) async throws -> Outcome {
        let stdin = try TemporaryFile.write(Data(input), mode: 0o600)
        let stdout = try TemporaryFile.write("", mode: 0o600)
        let stderr = try TemporaryFile.write("", mode: 0o600)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        process.currentDirectoryURL = packageRoot
        process.standardInput = FileHandle(forReadingAtPath: stdin)
        process.standardOutput = FileHandle(forWritingAtPath: stdout)
        process.standardError = FileHandle(forWritingAtPath: stderr)
        // Ends only the process started here, and only while it still runs.
        let watchdog = Task {
            try await Task.sleep(for: timeout)
            if process.isRunning { process.terminate() }
        }
        defer { watchdog.cancel() }
        let status: Int32 = try await withCheckedThrowingContinuation { continuation in
            process.terminationHandler = { continuation.resume(returning: $0.terminationStatus) }
            do {
                try process.run()
            } catch {
                process.terminationHandler = nil
                continuation.resume(throwing: error)
            }
        }
        func text(_ path: String) -> String { (try? String(contentsOfFile: path, encoding: .utf8)) ?? "" }
        return Outcome(status: status, output: text(stdout), errors: text(stderr))
    }
}
