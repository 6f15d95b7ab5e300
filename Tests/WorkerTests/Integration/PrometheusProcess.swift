import Foundation
import TestSupport

/// Debian's `prometheus` as a child process on loopback: one scrape job (`apns-worker`) every
/// second, the given rules evaluated every second, storage in a temporary folder; asked through its
/// HTTP API with curl.
struct PrometheusProcess {
    struct Rule: CustomStringConvertible {
        let name: String
        let health: String
        /// Whether Prometheus has evaluated it at least once.
        let evaluated: Bool
        var description: String { "\(name): \(health)" }
    }

    struct Alert: CustomStringConvertible {
        let name: String
        let state: String
        var labels: [String: String] = [:]
        var description: String { "\(name) \(state)" }
    }

    let port: Int
    private let process: Process
    private let folder: URL

    /// One scrape job: its name, `host:port`, path and URL parameters.
    struct ScrapeJob {
        var name: String
        var target: String
        var path = "/metrics"
        var parameters: [String: [String]] = [:]

        var yaml: String {
            let parameters = self.parameters.isEmpty ? "" : ", params: {\(self.parameters.map { "\($0.key): [\($0.value.map { "\"\($0)\"" }.joined(separator: ", "))]" }.joined(separator: ", "))}"
            return "  - {job_name: \(name), metrics_path: \"\(path)\", static_configs: [{targets: [\"\(target)\"]}]\(parameters)}"
        }
    }

    /// Starts Prometheus scraping a worker (job `apns-worker`) and waits until it answers `/-/ready`.
    init(target: String, rules: String) async throws {
        try await self.init(jobs: [ScrapeJob(name: "apns-worker", target: target)], rules: rules)
    }

    /// Starts Prometheus with these scrape jobs and waits until it answers `/-/ready`.
    init(jobs: [ScrapeJob], rules: String) async throws {
        port = FreePort.pick()
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("prometheus-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let configuration = """
            global: {scrape_interval: 1s, evaluation_interval: 1s}
            rule_files: ["\(rules)"]
            scrape_configs:
            \(jobs.map(\.yaml).joined(separator: "\n"))
            """
        try Data(configuration.utf8).write(to: folder.appendingPathComponent("prometheus.yml"))
        process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/prometheus")
        process.arguments = [
            "--config.file=\(folder.appendingPathComponent("prometheus.yml").path)",
            "--storage.tsdb.path=\(folder.appendingPathComponent("data").path)",
            "--web.listen-address=127.0.0.1:\(port)",
        ]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        do {
            try await process.waitUntilServing(
                "prometheus ready on port \(port)", interval: .milliseconds(200), probe: "/usr/bin/curl", ["-sf", "http://127.0.0.1:\(port)/-/ready"])
        } catch {
            stop()
            throw error
        }
    }

    func stop() {
        if process.isRunning {
            process.terminate()
            process.waitUntilExit()
        }
        try? FileManager.default.removeItem(at: folder)
    }

    /// The value of an instant query's first sample, or nil when the result is empty.
    func value(of query: String) throws -> Double? {
        let data = try api("query", ["query": query])
        guard let result = (data["result"] as? [[String: Any]])?.first, let pair = result["value"] as? [Any] else { return nil }
        return (pair.last as? String).flatMap(Double.init)
    }

    /// Every alerting rule Prometheus loaded.
    func rules() throws -> [Rule] {
        let groups = try api("rules", ["type": "alert"])["groups"] as? [[String: Any]] ?? []
        return groups.flatMap { ($0["rules"] as? [[String: Any]]) ?? [] }.map { rule in
            Rule(
                name: rule["name"] as? String ?? "?", health: rule["health"] as? String ?? "?",
                evaluated: (rule["lastEvaluation"] as? String).map { !$0.hasPrefix("0001") } ?? false
            )
        }
    }

    /// Alerts pending or firing.
    func alerts() throws -> [Alert] {
        let alerts = try api("alerts", [:])["alerts"] as? [[String: Any]] ?? []
        return alerts.map { alert in
            let labels = alert["labels"] as? [String: String] ?? [:]
            return Alert(name: labels["alertname"] ?? "?", state: alert["state"] as? String ?? "?", labels: labels)
        }
    }

    /// Polls `condition` every 200 ms for up to 30 s.
    func waitUntil(_ what: String, _ condition: () throws -> Bool) async throws {
        try await Condition.wait("prometheus: \(what)", interval: .milliseconds(200), condition)
    }

    /// `GET /api/v1/<path>`'s `data` object.
    private func api(_ path: String, _ parameters: [String: String]) throws -> [String: Any] {
        var arguments = ["-sf", "-G", "http://127.0.0.1:\(port)/api/v1/\(path)"]
        for (name, value) in parameters { arguments += ["--data-urlencode", "\(name)=\(value)"] }
        let output = try ProcessRun.blocking("/usr/bin/curl", arguments).output
        guard let object = try JSONSerialization.jsonObject(with: Data(output.utf8)) as? [String: Any], object["status"] as? String == "success" else {
            throw HarnessError("prometheus /api/v1/\(path) answered: \(output.prefix(300))")
        }
        return object["data"] as? [String: Any] ?? [:]
    }
}
