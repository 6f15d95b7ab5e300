import AMQP
import APNsClient
import APNsCore
import Foundation
import MockAPNs
import Testing
import TestSupport
@testable import Worker
import WorkerConfiguration

@Suite("Worker metrics, health and logs (real processes)", .serialized, .io)
struct WorkerObservabilityTests {
    @Test("a full run exposes real metrics and health, and its trace-level logs hold no secret")
    func scrapeAndGrep() async throws {
        let user = "apns-obs-\(UUID().uuidString.prefix(8).lowercased())"
        let password = "brokerpw-\(UUID().uuidString)"
        _ = try await RabbitMQControl.run(["add_user", user, password])
        defer { Task { _ = try? await RabbitMQControl.run(["delete_user", user]) } }
        _ = try await RabbitMQControl.run(["set_permissions", "-p", "/", user, ".*", ".*", ".*"])
        let metricsPort = FaultRun.freePort()
        let p12Password = try TemporaryFile.write("test-only-password\n", mode: 0o600)
        let harness = try await WorkerHarness.make(mockSetup: {
            $0.faults.forcedReason = "InvalidProviderToken"
            $0.faults.forcedReasonCount = 1
        }) { settings in
            settings.amqp.urls = ["amqp://\(user):\(password)@127.0.0.1:\(TestBrokerPort.value)/"]
            settings.log.level = .trace
            settings.log.format = .json
            settings.metrics.port = metricsPort
            settings.credentials.append(CredentialSettings(
                name: "legacy-cert", kind: .pkcs12(file: (try? Fixtures.privateCopy(of: "tls/client.p12")) ?? "", passwordFile: p12Password),
                environment: .development
            ))
        }
        var bodies: [[UInt8]] = []
        var tokens: [String] = []
        for index in 0..<60 {
            let token = JobFactory.token(index % 10 == 0 ? "dead" : "a")
            tokens.append(token)
            let extra = index % 7 == 0 ? #","credential":"legacy-cert""# : ""
            bodies.append(JobFactory.alert(id: "obs-\(index)", token: token, extra: extra))
        }
        bodies.append(JobFactory.Kind.tooLarge.body(id: "obs-large"))
        try await harness.publish(bodies)
        let worker = try harness.launchWorker()
        // A failed wait or check must not leave the process running after the test.
        defer { if worker.isRunning { worker.terminate(); worker.waitUntilExit() } }
        let results = try await harness.results(count: bodies.count, idle: .seconds(15))
        #expect(results.count == bodies.count)

        let metrics = try http(port: metricsPort, path: "/metrics")
        #expect(metrics.status == 200)
        #expect(value(of: "apns_jobs_received_total", in: metrics.body) >= Double(bodies.count))
        #expect(value(of: "apns_jobs_acked_total", in: metrics.body) >= Double(bodies.count))
        // By credential: every seventh job names legacy-cert, the rest go to team-one by topic.
        let delivered = (0..<60).filter { $0 % 10 != 0 }
        #expect(value(of: #"apns_results_total{status="delivered",reason="",credential="team-one"}"#, in: metrics.body) == Double(delivered.filter { $0 % 7 != 0 }.count))
        #expect(value(of: #"apns_results_total{status="delivered",reason="",credential="legacy-cert"}"#, in: metrics.body) == Double(delivered.filter { $0 % 7 == 0 }.count))
        #expect(value(of: #"apns_results_total{status="rejected",reason="Unregistered",credential="team-one"}"#, in: metrics.body) == 5)
        #expect(value(of: #"apns_results_total{status="rejected",reason="Unregistered",credential="legacy-cert"}"#, in: metrics.body) == 1)
        // Series an alert reads exist before their first event.
        #expect(value(of: #"apns_credential_paused{credential="legacy-cert"}"#, in: metrics.body) == 0)
        #expect(value(of: "apns_credential_reload_successful", in: metrics.body) == 1)
        // Every family has its help line and is one the catalog (and so the docs) knows.
        let lines = metrics.body.split(separator: "\n")
        let families = lines.filter { $0.hasPrefix("# TYPE ") }.map { String($0.split(separator: " ")[2]) }
        #expect(families.count >= 20, "\(families)")
        for family in families {
            #expect(MetricCatalog.all.contains { $0.name == family }, "\(family) is not in the catalog")
            #expect(lines.contains { $0.hasPrefix("# HELP \(family) ") }, "\(family) has no # HELP line")
        }
        #expect(value(of: #"apns_jobs_dead_lettered_total{reason="PayloadTooLarge"}"#, in: metrics.body) == 1)
        #expect(metrics.body.contains(#"apns_request_duration_seconds_bucket{credential="team-one""#))
        #expect(metrics.body.contains(#"apns_connection_stream_limit{credential="team-one"}"#))
        #expect(metrics.body.contains("amqp_publish_confirm_duration_seconds_count"))
        #expect(value(of: "apns_prefetch", in: metrics.body) == Double(harness.settings.worker.prefetch))
        let notAfter = try CredentialRegistry.load(harness.settings).entry(named: "legacy-cert")?.certificateNotAfter
        #expect(notAfter != nil)
        #expect(value(of: #"apns_credential_certificate_expiry_timestamp_seconds{credential="legacy-cert"}"#, in: metrics.body) == notAfter?.timeIntervalSince1970)
        #expect(!metrics.body.contains(#"apns_credential_certificate_expiry_timestamp_seconds{credential="team-one"}"#), "token keys do not expire")
        let live = try http(port: metricsPort, path: "/health/live")
        #expect(live.status == 200)
        let ready = try http(port: metricsPort, path: "/health/ready")
        #expect(ready.status == 200, "\(ready.body)")
        #expect(ready.body.contains(#""ready":true"#))

        worker.terminate()
        await worker.exited()
        #expect(worker.terminationStatus == 0)
        let log = harness.processLog
        #expect(log.split(separator: "\n").count > 20, "the trace log is suspiciously short")
        // The job postponed for the refused credential went to a retry tier, which info level shows.
        let retryLine = log.split(separator: "\n").first { $0.contains("jobs sent to a retry tier") }
        #expect(retryLine?.contains(#""level":"info""#) == true && log.contains("InvalidProviderToken"), "no retry line at info level: \(String(describing: retryLine))")
        #expect(log.split(separator: "\n").allSatisfy { (try? JSONSerialization.jsonObject(with: Data($0.utf8))) != nil })
        for secret in [password, "test-only-password", "eyJ", "BEGIN", "bearer "] + tokens {
            #expect(!log.contains(secret), "the log contains a secret: \(secret.prefix(12))…")
        }
        await harness.tearDown()
    }

    @Test("a credential APNs refuses shows in health and metrics, and the worker stays ready for every other credential")
    func pausedCredentialKeepsReadiness() async throws {
        let metricsPort = FaultRun.freePort()
        let harness = try await WorkerHarness.make(mockSetup: {
            // APNs refuses team-one's key once (as it would a revoked key): it pauses for 600 s.
            $0.faults.forcedReason = "InvalidProviderToken"
            $0.faults.forcedReasonCount = 1
        }) { settings in
            settings.metrics.port = metricsPort
            settings.worker.credentialBackoff = .seconds(600)
        }
        try await harness.publish([JobFactory.alert(id: "paused-1", token: JobFactory.token("b"))])
        let worker = try harness.launchWorker()
        // A failed wait or check must not leave the process running after the test.
        defer { if worker.isRunning { worker.terminate(); worker.waitUntilExit() } }
        let paused = #"apns_credential_paused{credential="team-one"}"#
        try await waitUntil(harness) { (try? http(port: metricsPort, path: "/metrics")).map { value(of: paused, in: $0.body) == 1 } ?? false }

        let ready = try http(port: metricsPort, path: "/health/ready")
        #expect(ready.status == 200, "\(ready.body)")
        #expect(ready.body.contains(#""ready":true"#), "\(ready.body)")
        #expect(ready.body.contains(#""paused_credentials":["team-one"]"#), "the paused credential is in the detail: \(ready.body)")
        let metrics = try http(port: metricsPort, path: "/metrics")
        #expect(value(of: #"apns_credential_paused{credential="team-two"}"#, in: metrics.body) == 0)

        worker.terminate()
        await worker.exited()
        #expect(worker.terminationStatus == 0)
        await harness.tearDown()
    }

    /// A plain HTTP/1.1 GET through curl (the endpoint is loopback-only here).
    func http(port: Int, path: String) throws -> (status: Int, body: String) {
        let text = try ProcessRun.blocking("/usr/bin/curl", ["-s", "-w", "\n%{http_code}", "http://127.0.0.1:\(port)\(path)"]).output
        let status = Int(text.split(separator: "\n").last ?? "") ?? 0
        return (status, String(text.dropLast(String(status).count + 1)))
    }

    /// The value of the first sample line that starts with `series`.
    func value(of series: String, in exposition: String) -> Double {
        exposition.split(separator: "\n").first { $0.hasPrefix(series + " ") }.flatMap { Double($0.split(separator: " ").last ?? "") } ?? -1
    }
}
