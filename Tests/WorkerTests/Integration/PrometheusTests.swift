import AMQP
import Foundation
import Testing
import TestSupport
import Worker
import WorkerConfiguration

/// The alert rules in `deploy/prometheus/`, checked by Debian's `promtool`, and a real Prometheus
/// scraping a real `apns-worker run`, evaluating those rules against what it scrapes.
@Suite("Prometheus: alert rules and a real scrape", .serialized, .io)
struct PrometheusTests {
    static let rules = Fixtures.repository.appendingPathComponent("deploy/prometheus/apns-worker.rules.yaml").path
    static let ruleTests = Fixtures.repository.appendingPathComponent("deploy/prometheus/apns-worker.rules.test.yaml").path
    /// The rules the file defines, counted from the file itself (`- alert:` entries).
    static var ruleCount: Int {
        ((try? String(contentsOfFile: rules, encoding: .utf8)) ?? "").split(separator: "\n").filter { $0.trimmingCharacters(in: .whitespaces).hasPrefix("- alert:") }.count
    }

    @Test("promtool accepts the rules file and its unit tests pass")
    func promtool() async throws {
        let check = try await ProcessRun.run("/usr/bin/promtool", ["check", "rules", Self.rules])
        #expect(check.status == 0, "\(check.output)")
        #expect(Self.ruleCount >= 10 && check.output.contains("SUCCESS: \(Self.ruleCount) rules found"), "\(check.output)")
        let tests = try await ProcessRun.run("/usr/bin/promtool", ["test", "rules", Self.ruleTests])
        #expect(tests.status == 0, "\(tests.output)")
        #expect(tests.output.contains("SUCCESS"), "\(tests.output)")
    }

    @Test("Prometheus scrapes a running worker, evaluates every rule without error, and sees it go down")
    func scrape() async throws {
        let metricsPort = FaultRun.freePort()
        let harness = try await WorkerHarness.make(mockSetup: { _ in }) { $0.metrics.port = metricsPort }
        let bodies = (0..<40).map { JobFactory.alert(id: "prom-\($0)") }
        try await harness.publish(bodies)
        let worker = try harness.launchWorker()
        defer { if worker.isRunning { worker.terminate(); worker.waitUntilExit() } }
        _ = try await harness.results(count: bodies.count, idle: Duration.seconds(15))
        // Prometheus starts once the worker has answered every job, so its metrics port is serving:
        // a scrape before the worker listened would record `up` 0 and leave APNsWorkerDown pending.
        let prometheus = try await PrometheusProcess(target: "127.0.0.1:\(metricsPort)", rules: Self.rules)
        defer { prometheus.stop() }

        // What the worker counted reaches Prometheus through a real scrape.
        try await prometheus.waitUntil("apns_jobs_acked_total scraped") {
            try prometheus.value(of: #"apns_jobs_acked_total{job="apns-worker"}"#) ?? 0 >= Double(bodies.count)
        }
        #expect(try prometheus.value(of: #"up{job="apns-worker"}"#) == 1)
        #expect(try prometheus.value(of: #"sum(apns_results_total{status="delivered"})"#) == Double(bodies.count))

        // Every rule has been evaluated against real series, and none failed to evaluate.
        try await prometheus.waitUntil("every rule evaluated") { try prometheus.rules().allSatisfy { $0.evaluated } }
        let rules = try prometheus.rules()
        #expect(rules.count == Self.ruleCount)
        #expect(rules.allSatisfy { $0.health == "ok" }, "\(rules.filter { $0.health != "ok" })")
        // Two rules are held to what Prometheus itself recorded: on a loaded machine (the whole suite at
        // once) a few of these 40 round trips can take over a second, and a scrape can outlast its 1 s
        // timeout. Then the slow-requests alert, or APNsWorkerDown, is right to be pending. Every other
        // alert fails the test, and so do these two when Prometheus saw nothing to justify them.
        let p99 = try prometheus.value(of: "histogram_quantile(0.99, sum by (le) (rate(apns_request_duration_seconds_bucket[5m])))") ?? 0
        let missedScrape = try prometheus.value(of: #"min_over_time(up{job="apns-worker"}[5m])"#) == 0
        let alerts = try prometheus.alerts().filter {
            !($0.name == "APNsWorkerSlowRequests" && p99 > 1) && !($0.name == "APNsWorkerDown" && missedScrape)
        }
        #expect(alerts.isEmpty, "a healthy worker raised alerts: \(alerts) (request p99 \(p99) s, a missed scrape: \(missedScrape))")

        // The worker stops: the next scrape fails and APNsWorkerDown goes pending (it fires after 5 min).
        worker.terminate()
        await worker.exited()
        try await prometheus.waitUntil("APNsWorkerDown pending") {
            try prometheus.alerts().contains { $0.name == "APNsWorkerDown" && $0.state == "pending" }
        }
        await harness.tearDown()
    }

    @Test("Prometheus scrapes the broker's own endpoint: jobs with no consumer raise APNsJobsWithoutConsumers, a consumer clears it")
    func brokerRules() async throws {
        // A vhost of its own holding a queue of the default jobs name, which the rules match.
        let vhost = try await RabbitMQControl.makeVirtualHost("alerts")
        defer { Task { _ = try? await RabbitMQControl.run(["delete_vhost", vhost]) } }
        var amqp = AMQPSection()
        amqp.urls = ["amqp://guest:guest@127.0.0.1:\(TestBrokerPort.value)/\(vhost)"]
        let client = AMQPClient(options: try amqp.clientOptions(), logger: WorkerHarness.quietLogger("broker-rules"))
        try await client.connect()
        let topology = Topology(settings: TopologySection())
        try await topology.declare(on: client)
        for index in 0..<10 {
            _ = try await client.publish(exchange: "apns.jobs", routingKey: "send", message: AMQPMessage(body: JobFactory.alert(id: "waiting-\(index)")), mandatory: true)
        }
        // As docs/operations.md says to scrape it: the detailed endpoint, two families, this vhost.
        let broker = PrometheusProcess.ScrapeJob(
            name: "rabbitmq", target: "127.0.0.1:\(TestBrokerPort.value + 10000)", path: "/metrics/detailed",
            parameters: ["family": ["queue_coarse_metrics", "queue_consumer_count"], "vhost": [vhost]]
        )
        let prometheus = try await PrometheusProcess(jobs: [broker], rules: Self.rules)
        defer { prometheus.stop() }
        try await prometheus.waitUntil("APNsJobsWithoutConsumers pending for \(vhost)") {
            try prometheus.alerts().contains { $0.name == "APNsJobsWithoutConsumers" && $0.labels["vhost"] == vhost && $0.labels["queue"] == "apns.jobs" }
        }
        #expect(try prometheus.rules().allSatisfy { $0.health == "ok" })
        // A worker (here: a consumer) takes the queue: the alert goes away.
        let deliveries = try await client.consume(queue: "apns.jobs", prefetch: 1)
        try await prometheus.waitUntil("APNsJobsWithoutConsumers cleared") {
            try !prometheus.alerts().contains { $0.name == "APNsJobsWithoutConsumers" && $0.labels["vhost"] == vhost }
        }
        _ = deliveries
        await client.cancelConsuming()
        await client.close()
    }
}
