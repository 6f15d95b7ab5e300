import APNsClient
import APNsCore
import Foundation
import Testing
import TestSupport
import WorkerConfiguration

@Suite struct CredentialRegistryTests {
    /// Settings with the given credentials and defaults elsewhere.
    private func settings(_ credentials: [CredentialSettings], endpoint: String? = nil) throws -> WorkerSettings {
        var settings = try WorkerSettingsLoader.load(
            yaml: Sample.credential + (endpoint.map { "apns: {endpoint: \"\($0)\"}\n" } ?? ""),
            environment: [:]
        )
        settings.credentials = credentials
        return settings
    }

    private func token(_ name: String, key: String = "TESTKEY001", team: String = "TEAMID0001", mode: Int = 0o600, allowInsecure: Bool = false, topics: [String] = []) throws -> CredentialSettings {
        CredentialSettings(
            name: name,
            kind: .token(teamID: team, keyID: key, keyFile: try Fixtures.privateCopy(of: "keys/AuthKey_\(key).p8", mode: mode), allowInsecureKeyPermissions: allowInsecure, refreshAge: 50 * 60),
            topics: topics
        )
    }

    private func p12(_ name: String, password: String, topics: [String] = []) throws -> CredentialSettings {
        CredentialSettings(
            name: name,
            kind: .pkcs12(file: try Fixtures.privateCopy(of: "tls/client.p12"), passwordFile: try TemporaryFile.write(password + "\n", mode: 0o600)),
            environment: .development,
            topics: topics
        )
    }

    @Test func topicsMapExactlyThenByBundleID() throws {
        let registry = try CredentialRegistry.load(settings([
            try token("one", topics: ["com.example.app"]),
            try token("two", key: "TESTKEY002", team: "TEAMID0002", topics: ["com.example.other", "com.example.app.voip"]),
        ]))
        #expect(registry.entry(forTopic: "com.example.app")?.settings.name == "one")
        #expect(registry.entry(forTopic: "com.example.app.push-type.liveactivity")?.settings.name == "one")
        #expect(registry.entry(forTopic: "com.example.app.complication")?.settings.name == "one")
        // The exact topic wins over the bundle id it contains.
        #expect(registry.entry(forTopic: "com.example.app.voip")?.settings.name == "two")
        #expect(registry.entry(forTopic: "com.example.other.voip")?.settings.name == "two")
        #expect(registry.entry(forTopic: "com.example.unknown") == nil)
        #expect(registry.entry(forTopic: "com.example.app.unknownsuffix") == nil)
        #expect(registry.entry(forTopic: ".voip") == nil)
        #expect(registry.entry(named: "two")?.credential.name == "two")
        #expect(registry.entry(named: "three") == nil)
        #expect(registry.entries.map(\.settings.name) == ["one", "two"])
    }

    @Test func aTopicClaimedTwiceIsAProblem() throws {
        let problems = Sample.registryProblems(try settings([try token("one", topics: ["com.example.app"]), try token("two", topics: ["com.x", "com.example.app"])]))
        #expect(problems.map(\.path) == ["credentials[1].topics[1]"])
        #expect(problems.first?.message.contains("com.example.app") == true)

        let fromFile = Sample.problems("credentials:\n  - {name: a, team_id: TEAMID0001, key_id: TESTKEY001, key_file: /a, topics: [t]}\n  - {name: b, team_id: TEAMID0001, key_id: TESTKEY001, key_file: /b, topics: [t]}\n")
        #expect(fromFile.map(\.path) == ["credentials[1].topics[0]"])
    }

    @Test func duplicateNamesAreAProblem() throws {
        let problems = Sample.registryProblems(try settings([try token("same"), try token("same", key: "TESTKEY002", team: "TEAMID0002")]))
        #expect(problems.map(\.path) == ["credentials[1].name"])

        let fromFile = Sample.problems(Sample.credential + "  - {name: main, p12_file: /x.p12}\n")
        #expect(fromFile.map(\.path) == ["credentials[1].name"])
    }

    @Test func aKeyReadableByOthersIsRefusedUnlessAllowed() throws {
        let problems = Sample.registryProblems(try settings([try token("open", mode: 0o644)]))
        #expect(problems.map(\.path) == ["credentials[0].key_file"])
        #expect(problems.first?.message.contains("allow_insecure_key_permissions") == true)

        let registry = try CredentialRegistry.load(settings([try token("open", mode: 0o644, allowInsecure: true)]))
        #expect(registry.entries.first?.credential.usesTokens == true)
    }

    @Test func unusableKeysAreReportedWithTheirPaths() throws {
        let malformed = try Fixtures.privateCopy(of: "keys/malformed.p8")
        let problems = Sample.registryProblems(try settings([
            CredentialSettings(name: "missing", kind: .token(teamID: "TEAMID0001", keyID: "TESTKEY001", keyFile: "/nonexistent/AuthKey.p8", allowInsecureKeyPermissions: false, refreshAge: 3000)),
            CredentialSettings(name: "malformed", kind: .token(teamID: "TEAMID0001", keyID: "TESTKEY001", keyFile: malformed, allowInsecureKeyPermissions: false, refreshAge: 3000)),
            CredentialSettings(name: "bad-id", kind: .token(teamID: "team", keyID: "TESTKEY001", keyFile: try Fixtures.privateCopy(of: "keys/AuthKey_TESTKEY001.p8"), allowInsecureKeyPermissions: false, refreshAge: 3000)),
            CredentialSettings(name: "young", kind: .token(teamID: "TEAMID0001", keyID: "TESTKEY001", keyFile: malformed, allowInsecureKeyPermissions: false, refreshAge: 60)),
        ]))
        #expect(problems.map(\.path) == ["credentials[0].key_file", "credentials[1].key_file", "credentials[2].team_id", "credentials[3].refresh_age"])
        #expect(problems[0].message.contains("/nonexistent/AuthKey.p8"))
    }

    @Test func aPKCS12WithTheRightPasswordLoads() throws {
        let registry = try CredentialRegistry.load(settings([try p12("cert", password: "test-only-password")]))
        #expect(registry.entries.first?.credential.usesTokens == false)
        #expect(String(describing: try #require(registry.entries.first).endpoint) == "api.sandbox.push.apple.com:443")
    }

    @Test func aPKCS12WithTheWrongPasswordIsAProblemThatHidesThePassword() throws {
        let password = "wrong-but-secret-4711"
        let problems = Sample.registryProblems(try settings([try p12("cert", password: password)]))
        #expect(problems.map(\.path) == ["credentials[0].p12_file"])
        #expect(!ConfigurationProblems(problems).description.contains(password))
        #expect(problems.first?.message.contains("password") == true)
    }

    @Test func aMissingPasswordFileIsAProblem() throws {
        let settings = try settings([CredentialSettings(name: "cert", kind: .pkcs12(file: try Fixtures.privateCopy(of: "tls/client.p12"), passwordFile: "/nonexistent/pw"))])
        #expect(Sample.registryProblems(settings).map(\.path) == ["credentials[0].p12_password_file"])
    }

    @Test func pemCertificatesLoadAndTheirKeysAreChecked() throws {
        let certificate = Fixtures.path("tls/client.pem")
        let loaded = try CredentialRegistry.load(settings([
            CredentialSettings(name: "pem", kind: .pem(certificateFile: certificate, keyFile: try Fixtures.privateCopy(of: "tls/client.key"))),
        ]))
        #expect(loaded.entries.count == 1)
        let problems = Sample.registryProblems(try settings([
            CredentialSettings(name: "open", kind: .pem(certificateFile: certificate, keyFile: try Fixtures.privateCopy(of: "tls/client.key", mode: 0o644))),
            CredentialSettings(name: "nocert", kind: .pem(certificateFile: "/nonexistent/cert.pem", keyFile: try Fixtures.privateCopy(of: "tls/client.key"))),
        ]))
        #expect(problems.map(\.path) == ["credentials[0].key_file", "credentials[1].certificate_file"])
    }

    @Test func endpointsFollowTheOverrideOrTheEnvironment() throws {
        let production = try CredentialRegistry.load(settings([try token("one")]))
        #expect(String(describing: try #require(production.entries.first).endpoint) == "api.push.apple.com:443")
        let mock = try CredentialRegistry.load(settings([try token("one")], endpoint: "localhost:2197"))
        #expect(String(describing: try #require(mock.entries.first).endpoint) == "localhost:2197")
    }

    @Test func connectionsFallBackToTheAPNsDefault() throws {
        var own = try token("own")
        own.connections = 5
        var settings = try settings([own, try token("shared", key: "TESTKEY002", team: "TEAMID0002")])
        settings.apns.connections = 3
        #expect(try CredentialRegistry.load(settings).entries.map(\.connections) == [5, 3])
    }

    @Test func tokensAreSignedOnTheGivenClock() throws {
        let clock = ManualWallClock(Date(timeIntervalSince1970: 1_900_000_000))
        let registry = try CredentialRegistry.load(settings([try token("one")]), clock: clock)
        guard case .token(let source)? = registry.entries.first?.credential.authentication else {
            Issue.record("not a token credential")
            return
        }
        #expect(try source.tokenForInstall().issuedAt == clock.now())
        #expect(source.signer.teamID == "TEAMID0001")
    }
}
