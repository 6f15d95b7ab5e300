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
        try Data(yaml().utf8).write(to: config)
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

    /// The settings as the configuration file a user would write.
    func yaml() -> String {
        func quoted(_ text: String) -> String { "\"\(text)\"" }
        func file(_ path: String?) -> String { path.map(quoted) ?? "null" }
        func duration(_ value: Duration) -> String { "\(Int(value.components.seconds * 1000 + value.components.attoseconds / 1_000_000_000_000_000))ms" }
        var lines = [
            "worker:",
            "  name: \(settings.worker.name)",
            "  prefetch: \(settings.worker.prefetch)",
            "  urgent_prefetch: \(settings.worker.urgentPrefetch)",
            "  max_attempts: \(settings.worker.maxAttempts)",
            "  shutdown_timeout: \(duration(settings.worker.shutdownTimeout))",
            "  credential_backoff: \(duration(settings.worker.credentialBackoff))",
            "  credential_watch_interval: \(settings.worker.credentialWatchInterval.map(duration) ?? "null")",
            "amqp:",
            "  urls: [\(settings.amqp.urls.map(quoted).joined(separator: ", "))]",
            "  connection_name: \(settings.amqp.connectionName)",
            "topology:",
            "  jobs_exchange: \(settings.topology.jobsExchange)",
            "  jobs_queue: \(settings.topology.jobsQueue)",
            "  urgent_queue: \(settings.topology.urgentQueue ?? "null")",
            "  team_lanes: [\(settings.topology.teamLanes.map { "{name: \($0.name), queue: \($0.queue), prefetch: \($0.prefetch.map(String.init) ?? "null")}" }.joined(separator: ", "))]",
            "  partitions: \(settings.topology.partitions)",
            "  retry_exchange: \(settings.topology.retryExchange)",
            "  retry_queue_prefix: \(settings.topology.retryQueuePrefix)",
            "  retry_tiers: [\(settings.topology.retryTiers.map(duration).joined(separator: ", "))]",
            "  dead_exchange: \(settings.topology.deadExchange)",
            "  dead_queue: \(settings.topology.deadQueue)",
            "  results_exchange: \(settings.topology.resultsExchange)",
            "  results_queue: \(settings.topology.resultsQueue ?? "null")",
            "apns:",
            "  endpoint: \(quoted(settings.apns.endpoint!.description))",
            "  ca_file: \(quoted(settings.apns.caFile!))",
            "  trust_system_store: false",
            "  request_timeout: \(duration(settings.apns.requestTimeout))",
            "log:",
            "  level: \(settings.log.level.rawValue)",
            "  format: \(settings.log.format.rawValue)",
            "metrics:",
            "  host: 127.0.0.1",
            "  port: \(settings.metrics.port.map(String.init) ?? "null")",
            "credentials:",
        ]
        for credential in settings.credentials {
            lines += ["  - name: \(credential.name)", "    environment: \(credential.environment.rawValue)", "    topics: [\(credential.topics.joined(separator: ", "))]"]
            switch credential.kind {
            case .token(let team, let key, let keyFile, _, _):
                lines += ["    type: token", "    team_id: \(team)", "    key_id: \(key)", "    key_file: \(quoted(keyFile))"]
            case .pkcs12(let p12, let passwordFile):
                lines += ["    type: certificate", "    p12_file: \(quoted(p12))", "    p12_password_file: \(file(passwordFile))"]
            case .pem(let certificate, let key):
                lines += ["    type: certificate", "    certificate_file: \(quoted(certificate))", "    key_file: \(quoted(key))"]
            }
        }
        return lines.joined(separator: "\n") + "\n"
    }
}
