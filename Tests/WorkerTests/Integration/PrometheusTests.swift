import Foundation
import Testing
import TestSupport
import WorkerConfiguration

/// The alert rules in `deploy/prometheus/`, checked by Debian's `promtool`, and a real Prometheus
/// scraping a real `apns-worker run`, evaluating those rules against what it scrapes.
@Suite("Prometheus: alert rules and a real scrape", .serialized)
struct PrometheusTests {
    static let rules = Fixtures.repository.appendingPathComponent("deploy/prometheus/apns-worker.rules.yaml").path
    static let ruleTests = Fixtures.repository.appendingPathComponent("deploy/prometheus/apns-worker.rules.test.yaml").path

    @Test("promtool accepts the rules file and its unit tests pass")
    func promtool() throws {
        let check = try CommandOutput.run("/usr/bin/promtool", ["check", "rules", Self.rules])
        #expect(check.status == 0, "\(check.output)")
        #expect(check.output.contains("SUCCESS: 12 rules found"), "\(check.output)")
        let tests = try CommandOutput.run("/usr/bin/promtool", ["test", "rules", Self.ruleTests])
        #expect(tests.status == 0, "\(tests.output)")
        #expect(tests.output.contains("SUCCESS"), "\(tests.output)")
    }

    @Test("Prometheus scrapes a running worker, evaluates every rule without error, and sees it go down")
    func scrape() async throws {
        let metricsPort = FaultRun.freePort()
        let harness = try await WorkerHarness.make(mockSetup: { _ in }) { $0.metrics.port = metricsPort }
        let prometheus = try PrometheusProcess(target: "127.0.0.1:\(metricsPort)", rules: Self.rules)
        defer { prometheus.stop() }
        let bodies = (0..<40).map { JobFactory.alert(id: "prom-\($0)") }
        try await harness.publish(bodies)
        let worker = try harness.launchWorker()
        _ = try await harness.results(count: bodies.count, idle: Duration.seconds(15))

        // What the worker counted reaches Prometheus through a real scrape.
        try await prometheus.waitUntil("apns_jobs_acked_total scraped") {
            try prometheus.value(of: #"apns_jobs_acked_total{job="apns-worker"}"#) ?? 0 >= Double(bodies.count)
        }
        #expect(try prometheus.value(of: #"up{job="apns-worker"}"#) == 1)
        #expect(try prometheus.value(of: #"sum(apns_results_total{status="delivered"})"#) == Double(bodies.count))

        // Every rule has been evaluated against real series, and none failed to evaluate.
        try await prometheus.waitUntil("every rule evaluated") { try prometheus.rules().allSatisfy { $0.evaluated } }
        let rules = try prometheus.rules()
        #expect(rules.count == 12)
        #expect(rules.allSatisfy { $0.health == "ok" }, "\(rules.filter { $0.health != "ok" })")
        let alerts = try prometheus.alerts()
        #expect(alerts.isEmpty, "a healthy worker raised alerts: \(alerts)")

        // The worker stops: the next scrape fails and APNsWorkerDown goes pending (it fires after 5 min).
        worker.terminate()
        worker.waitUntilExit()
        try await prometheus.waitUntil("APNsWorkerDown pending") {
            try prometheus.alerts().contains { $0.name == "APNsWorkerDown" && $0.state == "pending" }
        }
        await harness.tearDown()
    }
}
