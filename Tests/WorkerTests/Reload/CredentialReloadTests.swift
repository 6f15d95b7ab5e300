import APNsClient
import APNsCore
import Foundation
import MockAPNs
import Testing
import TestSupport
import TLS
@testable import Worker
import WorkerConfiguration

/// Credentials replaced while jobs flow: what SIGHUP does.
@Suite("Credential reload", .io)
struct CredentialReloadTests {
    @Test("under load: a .p8 rotated to a new key id, a .p12 replaced, a credential added and one removed, a broken reload refused — every job delivered")
    func rotationUnderLoad() async throws {
        let rotated = try await CredentialMaterial.tokenKey()
        let harness = try await WorkerHarness.make(mockSetup: CredentialMaterial.mockTrusting(rotated.publicPEM)) { settings in
            settings.credentials.append(CredentialSettings(
                name: "cert", kind: .pkcs12(file: (try? Fixtures.privateCopy(of: "tls/client.p12")) ?? "", passwordFile: try? TemporaryFile.write("test-only-password\n", mode: 0o600)),
                environment: .development
            ))
            settings.credentials.append(CredentialSettings(
                name: "spare", kind: .token(teamID: "TEAMID0002", keyID: "TESTKEY002", keyFile: (try? Fixtures.privateCopy(of: "keys/AuthKey_TESTKEY002.p8")) ?? "", allowInsecureKeyPermissions: false, refreshAge: 50 * 60),
                environment: .development, topics: ["com.example.spare"]
            ))
        }
        let worker = try await harness.startWorker()
        let service = worker.service
        var ids: Set<String> = []
        func wave(_ name: String, credentials: [String] = ["", #","credential":"cert""#, ""]) async throws {
            var bodies: [[UInt8]] = []
            for index in 0..<300 {
                let id = "\(name)-\(index)"
                ids.insert(id)
                let extra = credentials[index % credentials.count]
                bodies.append(JobFactory.alert(id: id, topic: index % 3 == 2 ? "com.example.other" : "com.example.app", extra: extra))
            }
            try await harness.publish(bodies)
        }
        var settings = harness.settings

        try await wave("before")
        // 1. team-one's key rotated: a new .p8 with a new key id, under a new path.
        settings.credentials[0].kind = .token(teamID: "TEAMID0001", keyID: "ROTATED001", keyFile: rotated.keyFile, allowInsecureKeyPermissions: false, refreshAge: 50 * 60)
        let rotation = service.reloadCredentials(try CredentialRegistry.load(settings))
        #expect(rotation.replaced == ["team-one"])
        #expect(rotation.unchanged == ["team-two", "cert", "spare"])
        try await wave("rotated-key")

        // 2. The certificate renewed: a new .p12 written over the same file.
        guard case .pkcs12(let p12File, _) = settings.credentials[2].kind else { throw HarnessError("no p12") }
        try await CredentialMaterial.replaceCertificate(at: p12File)
        let renewal = service.reloadCredentials(try CredentialRegistry.load(settings))
        #expect(renewal.replaced == ["cert"])
        try await wave("renewed-cert")

        // 3. A broken configuration is refused whole: nothing changes.
        var broken = settings
        broken.credentials[1].kind = .token(teamID: "TEAMID0002", keyID: "TESTKEY002", keyFile: "/nonexistent/AuthKey.p8", allowInsecureKeyPermissions: false, refreshAge: 50 * 60)
        broken.credentials.removeLast()
        do {
            _ = try CredentialRegistry.load(broken)
            Issue.record("a missing key file loaded")
        } catch {
            #expect(error.problems.contains { "\($0)".contains("credentials[1].key_file") }, "\(error.problems)")
            service.refuseReload(problems: error.problems)
        }
        let before = service.credentialsInForce.entries.map(\.credential.revision)

        // 4. One credential removed, one added; jobs then name the new one.
        settings.credentials.removeLast()
        settings.credentials.append(CredentialSettings(
            name: "team-three", kind: .token(teamID: "TEAMID0002", keyID: "TESTKEY002", keyFile: try Fixtures.privateCopy(of: "keys/AuthKey_TESTKEY002.p8"), allowInsecureKeyPermissions: false, refreshAge: 50 * 60),
            environment: .development
        ))
        #expect(before == service.credentialsInForce.entries.map(\.credential.revision), "the refused reload changed nothing")
        let membership = service.reloadCredentials(try CredentialRegistry.load(settings))
        #expect(membership.added == ["team-three"])
        #expect(membership.removed == ["spare"])
        try await wave("membership", credentials: ["", #","credential":"cert""#, #","credential":"team-three""#])

        let results = try await harness.results(covering: ids, idle: .seconds(15))
        let byID = Dictionary(results.compactMap { result in result.id.map { ($0, result) } }, uniquingKeysWith: { first, _ in first })
        #expect(Set(byID.keys) == ids, "lost: \(ids.subtracting(byID.keys).sorted().prefix(5))")
        let notDelivered = byID.values.filter { $0.status != .delivered }
        #expect(notDelivered.isEmpty, "\(notDelivered.prefix(3).map { "\($0.id ?? "?"): \($0.status) \($0.reason ?? "")" })")
        let snapshot = harness.mock.server.recorder.snapshot
        #expect(snapshot.rejectedByReason["TooManyProviderTokenUpdates"] == nil)
        #expect(snapshot.rejectedByReason["InvalidProviderToken"] == nil)
        #expect(byID.values.filter { $0.id?.hasPrefix("membership") == true && $0.credential == "team-three" }.count == 100)

        // The old revisions' connections close once their streams are done; the new ones serve.
        let revisions = Dictionary(uniqueKeysWithValues: service.credentialsInForce.entries.map { ($0.settings.name, $0.credential.revision) })
        try await waitUntil {
            service.shards.flatMap(\.apns.openPools).allSatisfy { pool in revisions[pool.credential] == pool.revision }
        }
        #expect(service.shards.allSatisfy { $0.apns.openPools.contains { $0.credential == "team-one" && $0.revision == revisions["team-one"] } })
        try await worker.stop()
        await harness.tearDown()
    }
}
