import Foundation
import Testing
import TestSupport

/// `mock-apns` as a user starts it: from any folder, it finds the fixtures of the checkout it was
/// built in; with a path that exists nowhere, it says which option and what to do.
@Suite("mock-apns (a real process)", .io)
struct MockCommandTests {
    static let binary = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("mock-apns")

    /// Runs the mock in `/` and returns its first line of output (its listening line or its error),
    /// and whether it served: it was stopped by our SIGTERM rather than exiting by itself.
    func start(_ arguments: [String]) async throws -> (line: String, served: Bool) {
        let process = Process()
        process.executableURL = Self.binary
        process.arguments = ["--port", "0"] + arguments
        process.currentDirectoryURL = URL(fileURLWithPath: "/")
        let output = Pipe()
        process.standardOutput = output
        process.standardError = output
        try process.run()
        // The first line, or everything until it exits: readLine-style, bounded by the pipe's end.
        var bytes: [UInt8] = []
        let handle = output.fileHandleForReading
        while !bytes.contains(UInt8(ascii: "\n")), let chunk = try handle.read(upToCount: 1), !chunk.isEmpty { bytes += chunk }
        if bytes.starts(with: Array("mock-apns listening".utf8)) { process.terminate() }
        await process.exited()
        return (String(decoding: bytes, as: UTF8.self), process.terminationReason == .uncaughtSignal)
    }

    @Test func startsOutsideTheCheckout() async throws {
        let started = try await start([])
        #expect(started.served && started.line.hasPrefix("mock-apns listening on 127.0.0.1:"), "\(started.line)")
    }

    @Test func aMissingFileNamesItsOptionAndTheWayOut() async throws {
        let started = try await start(["--certificate", "nowhere/server.pem"])
        #expect(!started.served)
        #expect(started.line.contains("--certificate") && started.line.contains("nowhere/server.pem"), "\(started.line)")
    }
}
