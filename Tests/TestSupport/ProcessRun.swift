public import Foundation

/// A program run to its end, and what it printed: the one way tests run a tool (curl, rabbitmqctl,
/// promtool, python3, yamllint, `apns-worker` commands …) and wait for it.
///
/// Output goes to temporary files rather than pipes, so a chatty program can never fill a pipe and
/// hang; standard input is `input` (empty by default), never the test runner's own.
public struct ProcessRun: Sendable {
    public let status: Int32
    public let output: String
    public let errors: String

    public var succeeded: Bool { status == 0 }
    /// The exit status and both streams, for a failure message.
    public var transcript: String { "exit status \(status)\n--- stdout\n\(output)\n--- stderr\n\(errors)" }

    /// Runs `program` (a path, or a name found on `PATH`) with `arguments` in `directory` (the
    /// checkout's root by default), blocking the calling thread until it exits.
    public static func blocking(
        _ program: String, _ arguments: [String], input: [UInt8] = [], in directory: URL = Fixtures.repository
    ) throws -> ProcessRun {
        let files = try Files(input: input)
        let process = try files.process(program, arguments, in: directory)
        try process.run()
        process.waitUntilExit()
        return files.outcome(process.terminationStatus)
    }

    /// ``blocking(_:_:input:in:)`` without blocking a thread; the program is terminated if it outlives
    /// `timeout`.
    public static func run(
        _ program: String, _ arguments: [String], input: [UInt8] = [], in directory: URL = Fixtures.repository,
        timeout: Duration = .seconds(120)
    ) async throws -> ProcessRun {
        let files = try Files(input: input)
        let process = try files.process(program, arguments, in: directory)
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
        return files.outcome(status)
    }

    /// The temporary files a run reads from and writes to.
    private struct Files {
        let input: String
        let output: String
        let errors: String

        init(input bytes: [UInt8]) throws {
            input = try TemporaryFile.write(Data(bytes), mode: 0o600)
            output = try TemporaryFile.write("", mode: 0o600)
            errors = try TemporaryFile.write("", mode: 0o600)
        }

        func process(_ program: String, _ arguments: [String], in directory: URL) throws -> Process {
            try TestTier.requireIO("running \(program)")
            let process = Process()
            if program.hasPrefix("/") {
                process.executableURL = URL(fileURLWithPath: program)
                process.arguments = arguments
            } else {
                process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
                process.arguments = [program] + arguments
            }
            process.currentDirectoryURL = directory
            process.standardInput = FileHandle(forReadingAtPath: input)
            process.standardOutput = FileHandle(forWritingAtPath: output)
            process.standardError = FileHandle(forWritingAtPath: errors)
            return process
        }

        func outcome(_ status: Int32) -> ProcessRun {
            func text(_ path: String) -> String { (try? String(contentsOfFile: path, encoding: .utf8)) ?? "" }
            return ProcessRun(status: status, output: text(output), errors: text(errors))
        }
    }
}
