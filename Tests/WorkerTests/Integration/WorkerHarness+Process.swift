import APNsClient
import APNsCore
import Foundation
import WorkerConfiguration

/// The harness's worker as its own `apns-worker run` process, for what only a process can show:
/// `kill -9`, and SIGTERM handling.
extension WorkerHarness {
    /// Starts `apns-worker run` (built next to the test bundle) with this harness's settings; its log
    /// starts empty.
    func launchWorker() throws -> Process {
        try startCommand(["run"], log: logPath, appending: false)
    }

    /// Starts `apns-worker <arguments> --config <file>`, the file being the harness's settings as YAML
    /// (written at `config` now), with `environment` added to the test's; standard output discarded,
    /// standard error to `log` (appended to, or started afresh). The one way tests start the binary
    /// and leave it running.
    func startCommand(
        _ arguments: [String], config: URL? = nil, environment: [String: String] = [:], log: String, appending: Bool
    ) throws -> Process {
        let binary = URL(fileURLWithPath: WorkerCommandLine.binary)
        guard FileManager.default.isExecutableFile(atPath: binary.path) else { throw HarnessError("no apns-worker at \(binary.path); build it first") }
        let config = config ?? configPath
        try Data(settings.yaml.utf8).write(to: config)
        if !appending || !FileManager.default.fileExists(atPath: log) {
            _ = FileManager.default.createFile(atPath: log, contents: nil)
        }
        guard let logHandle = FileHandle(forWritingAtPath: log) else { throw HarnessError("cannot open \(log)") }
        logHandle.seekToEndOfFile()
        let process = Process()
        process.executableURL = binary
        process.arguments = arguments + ["--config", config.path]
        if !environment.isEmpty {
            process.environment = ProcessInfo.processInfo.environment.merging(environment) { _, override in override }
        }
        process.standardOutput = FileHandle.nullDevice
        process.standardError = logHandle
        try process.run()
        return process
    }

    /// Where ``startCommand(_:config:environment:log:appending:)`` writes the configuration by default.
    var configPath: URL { FileManager.default.temporaryDirectory.appendingPathComponent("\(prefix)yaml") }

    /// Where the worker process writes its log (stderr); quoted when a test fails.
    var logPath: String { FileManager.default.temporaryDirectory.appendingPathComponent("\(prefix)log").path }

    /// The worker process's log so far.
    var processLog: String { (try? String(contentsOfFile: logPath, encoding: .utf8)) ?? "" }
}
