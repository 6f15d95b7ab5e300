import Foundation

/// Runs a command to the end and keeps what it printed: for tests that ask curl or rabbitmqctl.
public enum CommandOutput {
    /// Runs `executable` with `arguments` (standard error discarded) and returns its exit status and
    /// standard output.
    public static func run(_ executable: String, _ arguments: [String]) throws -> (status: Int32, output: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: data, as: UTF8.self))
    }
}
