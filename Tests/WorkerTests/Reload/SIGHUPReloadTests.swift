import Foundation
import MockAPNs
import Testing
import TestSupport
import TLS
@testable import Worker
import WorkerConfiguration

/// `kill -HUP` to a running `apns-worker run`, as an operator rotates a key.
@Suite("SIGHUP reload (a real process)", .serialized, .io)
struct SIGHUPReloadTests {
    @Test("a broken configuration is refused with its key path and the metric at 0; a good one rotates the key; jobs flow throughout")
    func hangUp() async throws {
        let rotated = try await CredentialMaterial.tokenKey()
        let metricsPort = FaultRun.freePort()
        let harness = try await WorkerHarness.make(mockSetup: CredentialMaterial.mockTrusting(rotated.publicPEM)) { settings in
            // Info: the code pages released after start-up and after each reload are logged there.
            settings.log.level = .info
            settings.metrics.port = metricsPort
        }
        let configPath = harness.configPath.path
        func rewrite(_ change: (inout WorkerSettings) -> Void) throws {
            var settings = harness.settings
            change(&settings)
            try Data(settings.yaml.utf8).write(to: URL(fileURLWithPath: configPath))
        }
        func reloadMetric() throws -> Double? {
            let body = try ProcessRun.blocking("/usr/bin/curl", ["-s", "http://127.0.0.1:\(metricsPort)/metrics"]).output
            return body.split(separator: "\n").first { $0.hasPrefix("apns_credential_reload_successful ") }.flatMap { Double($0.split(separator: " ").last ?? "") }
        }
        func jobs(_ name: String) -> [[UInt8]] {
            (0..<200).map { JobFactory.alert(id: "\(name)-\($0)", topic: $0 % 2 == 0 ? "com.example.app" : "com.example.other") }
        }

        let process = try harness.launchWorker()
        defer { if process.isRunning { process.terminate(); process.waitUntilExit() } }
        try await harness.publish(jobs("first"))
        #expect(try await harness.results(count: 200).allSatisfy { $0.status == .delivered })
        // Once consuming, the worker unmapped the code start-up ran; every job since ran regardless.
        try await waitUntil(harness) { harness.processLog.contains("after=start-up") && harness.processLog.contains("code pages released") }

        try rewrite { $0.credentials[1].kind = .token(teamID: "TEAMID0002", keyID: "TESTKEY002", keyFile: "/nonexistent/AuthKey_TESTKEY002.p8", allowInsecureKeyPermissions: false, refreshAge: 3000) }
        kill(process.processIdentifier, SIGHUP)
        try await waitUntil(harness) { harness.processLog.contains("configuration reload refused") && harness.processLog.contains("credentials[1].key_file") }
        // A refused reload ran the YAML reader and the key loading too: their code is released again.
        try await waitUntil(harness) { harness.processLog.contains("after=reload") }
        #expect(try reloadMetric() == 0)
        try await harness.publish(jobs("refused"))
        #expect(try await harness.results(count: 200).allSatisfy { $0.status == .delivered }, "the credentials in force stayed")

        try rewrite { $0.credentials[0].kind = .token(teamID: "TEAMID0001", keyID: "ROTATED001", keyFile: rotated.keyFile, allowInsecureKeyPermissions: false, refreshAge: 3000) }
        kill(process.processIdentifier, SIGHUP)
        try await waitUntil(harness) { harness.processLog.contains("credentials reloaded") }
        #expect(harness.processLog.contains("replaced=team-one"), "\(harness.processLog.suffix(1500))")
        #expect(try reloadMetric() == 1)
        try await harness.publish(jobs("rotated"))
        #expect(try await harness.results(count: 200).allSatisfy { $0.status == .delivered })
        #expect(harness.mock.server.recorder.snapshot.rejectedByReason.isEmpty)
        #expect(!harness.processLog.contains(rotated.keyFile.isEmpty ? "-" : "BEGIN PRIVATE KEY"), "no key material in the log")

        process.terminate()
        await process.exited()
        #expect(process.terminationStatus == 0)
        await harness.tearDown()
    }

    @Test("with credential_watch_interval, a rewritten configuration reloads by itself; a key file broken in place is refused, and restored is taken again")
    func watchedFiles() async throws {
        let rotated = try await CredentialMaterial.tokenKey()
        let harness = try await WorkerHarness.make(mockSetup: CredentialMaterial.mockTrusting(rotated.publicPEM)) { settings in
            settings.log.level = .notice
            settings.worker.credentialWatchInterval = .seconds(1)
        }
        let configPath = harness.configPath.path
        func occurrences(_ text: String) -> Int { harness.processLog.components(separatedBy: text).count - 1 }
        func delivered(_ name: String) async throws -> Bool {
            try await harness.publish((0..<100).map { JobFactory.alert(id: "\(name)-\($0)") })
            return try await harness.results(count: 100).allSatisfy { $0.status == .delivered }
        }

        let process = try harness.launchWorker()
        defer { if process.isRunning { process.terminate(); process.waitUntilExit() } }
        #expect(try await delivered("first"))

        var settings = harness.settings
        settings.credentials[0].kind = .token(teamID: "TEAMID0001", keyID: "ROTATED001", keyFile: rotated.keyFile, allowInsecureKeyPermissions: false, refreshAge: 3000)
        // Written whole (a rename): this step is about noticing a change, not about half-written files.
        try Data(settings.yaml.utf8).write(to: URL(fileURLWithPath: configPath), options: .atomic)
        try await waitUntil(harness) { occurrences("credentials reloaded") >= 1 }
        #expect(harness.processLog.contains("a watched file changed"))
        #expect(harness.processLog.contains("replaced=team-one"), "\(harness.processLog.suffix(1500))")
        #expect(try await delivered("rotated"))

        let key = try Data(contentsOf: URL(fileURLWithPath: rotated.keyFile))
        try Data("not a key\n".utf8).write(to: URL(fileURLWithPath: rotated.keyFile))
        try await waitUntil(harness) { occurrences("configuration reload refused") >= 1 }
        #expect(occurrences("credentials reloaded") == 1, "nothing taken while the key was broken")
        #expect(try await delivered("broken"), "the key in force stayed")

        try key.write(to: URL(fileURLWithPath: rotated.keyFile))
        try await waitUntil(harness) { occurrences("credentials reloaded") >= 2 }
        #expect(try await delivered("restored"))
        #expect(harness.mock.server.recorder.snapshot.rejectedByReason.isEmpty)
        #expect(!harness.processLog.contains("BEGIN PRIVATE KEY"), "no key material in the log")

        process.terminate()
        await process.exited()
        #expect(process.terminationStatus == 0)
        await harness.tearDown()
    }
}
