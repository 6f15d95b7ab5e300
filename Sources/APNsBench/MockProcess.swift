import Foundation

/// The mock APNs running as its own process, so the client's CPU is measured apart from the server's.
final class MockProcess {
    let process = Process()
    let port: Int

    /// Starts `mock-apns` (next to this executable) on a free port and waits for its "listening" line.
    init(arguments: [String] = []) throws {
        let executable = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("mock-apns")
        process.executableURL = executable
        process.arguments = ["--port", "0"] + arguments
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        var line = Data()
        while !line.contains(UInt8(ascii: "\n")) {
            let chunk = output.fileHandleForReading.availableData
            guard !chunk.isEmpty else { throw BenchError("mock-apns exited before listening") }
            line.append(chunk)
        }
        let text = String(decoding: line, as: UTF8.self)
        guard let portText = text.split(separator: ":").last?.split(separator: "\n").first, let port = Int(portText) else {
            throw BenchError("unexpected mock-apns output: \(text)")
        }
        self.port = port
    }

    func stop() {
        guard process.isRunning else { return }
        process.terminate()
        process.waitUntilExit()
    }

    deinit {
        // A benchmark that throws must not leave a server behind.
        stop()
    }
}

struct BenchError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
