import APNsCore
import APNsClient
import Foundation
import WorkerConfiguration

/// `apns-worker run` as its own process, with a configuration file written from settings.
final class WorkerProcess {
    let process = Process()
    let metricsPort: Int
    /// Where the worker's output goes (errors only, by its log level), to explain an early exit.
    let logFile: URL

    /// A port for a worker's metrics endpoint, below Linux's ephemeral range (32768–60999) so that it
    /// never meets the local port of some outgoing connection.
    static func freeMetricsPort() -> Int { Int.random(in: 20_000..<32_000) }

    /// `secondTeam`: a second credential, `team-b` (key TESTKEY002 of team TEAMID0002, topic
    /// com.example.other), next to `bench` (com.example.app). The worker logs at `logLevel` (errors
    /// only unless told) and serves metrics on 127.0.0.1:`metricsPort`.
    init(settings: WorkerSettings, metricsPort: Int = WorkerProcess.freeMetricsPort(), secondTeam: Bool = false, logLevel: LogSection.Level = .error) throws {
        self.metricsPort = metricsPort
        var settings = settings
        settings.log.level = logLevel
        settings.metrics.host = "127.0.0.1"
        settings.metrics.port = metricsPort
        settings.credentials = [Self.credential("bench", team: "TEAMID0001", key: "TESTKEY001", topic: "com.example.app")]
            + (secondTeam ? [Self.credential("team-b", team: "TEAMID0002", key: "TESTKEY002", topic: "com.example.other")] : [])
        let config = FileManager.default.temporaryDirectory.appendingPathComponent("apns-bench-\(UUID().uuidString).yaml")
        try Data(settings.yaml.utf8).write(to: config)
        process.executableURL = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("apns-worker")
        process.arguments = ["run", "--config", config.path]
        logFile = FileManager.default.temporaryDirectory.appendingPathComponent("apns-bench-worker-\(UUID().uuidString).log")
        _ = FileManager.default.createFile(atPath: logFile.path, contents: nil)
        let log = try FileHandle(forWritingTo: logFile)
        process.standardOutput = log
        process.standardError = log
        try process.run()
    }

    /// Throws, with the end of the worker's output, if the process is gone: a benchmark waiting for its
    /// acks would otherwise wait until its time limit.
    func checkRunning() throws {
        guard !process.isRunning else { return }
        let output = (try? String(contentsOf: logFile, encoding: .utf8)) ?? ""
        throw BenchError("apns-worker exited early (status \(process.terminationStatus)); its output ends: \(output.suffix(2_000))")
    }

    /// Jobs this worker acked so far (its /metrics), or nil while it does not answer yet.
    func acked() -> Int? {
        metric("apns_jobs_acked_total").map { Int($0) }
    }

    /// The value of one series of this worker's /metrics (its name, with labels as exposed), or nil
    /// while it does not answer or has no such series.
    func metric(_ series: String) -> Double? {
        Self.metric(series, port: metricsPort)
    }

    /// ``metric(_:)`` of the worker serving metrics on `port`.
    static func metric(_ series: String, port: Int) -> Double? {
        let curl = Process()
        curl.executableURL = URL(fileURLWithPath: "/usr/bin/curl")
        curl.arguments = ["-s", "--max-time", "2", "http://127.0.0.1:\(port)/metrics"]
        let output = Pipe()
        curl.standardOutput = output
        guard (try? curl.run()) != nil else { return nil }
        let data = output.fileHandleForReading.readDataToEndOfFile()
        curl.waitUntilExit()
        let text = String(decoding: data, as: UTF8.self)
        return text.split(separator: "\n").first { $0.hasPrefix(series + " ") }.flatMap { Double($0.split(separator: " ").last ?? "") }
    }

    /// Peak resident memory so far, in MiB.
    var peakRSSMiB: Double? { ProcFS.peakRSSMiB(pid: process.processIdentifier) }

    func stop() {
        process.interrupt()
        process.waitUntilExit()
        try? FileManager.default.removeItem(at: logFile)
    }

    /// A token credential of the test fixtures (the mock accepts their keys), by relative path: the
    /// benchmarks run from the repository root, where a fresh clone leaves the keys world-readable.
    private static func credential(_ name: String, team: String, key: String, topic: String) -> CredentialSettings {
        CredentialSettings(
            name: name,
            kind: .token(teamID: team, keyID: key, keyFile: "Tests/Fixtures/keys/AuthKey_\(key).p8", allowInsecureKeyPermissions: true, refreshAge: ProviderTokenPolicy.defaultRefreshAge),
            environment: .development, topics: [topic]
        )
    }
}
