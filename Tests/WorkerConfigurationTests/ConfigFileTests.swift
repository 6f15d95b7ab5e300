import APNsCore
import Foundation
import Testing
import TestSupport
import WorkerConfiguration

/// The committed files under `config/`.
@Suite struct ConfigFileTests {
    @Test func theExampleParsesWithEveryKeySet() throws {
        let settings = try WorkerSettingsLoader.load(path: Sample.configFile("worker.example.yaml"), environment: [:])
        #expect(settings.worker.name == "worker-1")
        #expect(settings.amqp.urls.count == 2)
        #expect(settings.amqp.passwordFile == "/run/secrets/amqp-password")
        #expect(settings.topology.retryQueueNames == [
            "apns.retry.5s", "apns.retry.30s", "apns.retry.2m", "apns.retry.10m",
            "apns.retry.urgent.5s", "apns.retry.urgent.30s", "apns.retry.urgent.2m", "apns.retry.urgent.10m",
        ])
        #expect(settings.credentials.map(\.name) == ["team-a", "legacy"])
        #expect(settings.credentials[0].kind == .token(teamID: "ABCDE12345", keyID: "KEY1234567", keyFile: "/run/secrets/AuthKey_KEY1234567.p8", allowInsecureKeyPermissions: false, refreshAge: 50 * 60))
        #expect(settings.credentials[1].kind == .pkcs12(file: "/run/secrets/legacy.p12", passwordFile: "/run/secrets/legacy.p12.password"))
        #expect(settings.credentials[1].environment == .development)
        #expect(settings.metrics.port == 9090)
    }

    @Test func theExamplesCredentialsPointAtSecretsThatAreNotHere() throws {
        let settings = try WorkerSettingsLoader.load(path: Sample.configFile("worker.example.yaml"), environment: [:])
        let problems = Sample.registryProblems(settings)
        #expect(problems.map(\.path) == ["credentials[0].key_file", "credentials[1].p12_password_file"])
        #expect(problems[0].message.contains("/run/secrets/AuthKey_KEY1234567.p8"))
        #expect(problems[1].message.contains("/run/secrets/legacy.p12.password"))
    }

    @Test func theExampleChecksWithEveryMissingFileNamed() {
        let problems = ConfigurationCheck.problems(path: Sample.configFile("worker.example.yaml"), environment: [:])
        #expect(problems.map(\.path) == ["credentials[0].key_file", "credentials[1].p12_password_file", "amqp.password_file"])
    }

    @Test func theLocalDemoLoadsWithItsCredentials() throws {
        // Git checks the .p12 out readable by others, which the TLS layer refuses; point at a private copy.
        let privateP12 = try Fixtures.privateCopy(of: "tls/client.p12")
        let loaded = try WorkerSettingsLoader.load(path: Sample.configFile("worker.local.yaml"), environment: ["APNS_WORKER__CREDENTIALS__2__P12_FILE": privateP12])
        let settings = loaded.resolvingRelativePaths(against: Sample.repositoryRoot.path)
        #expect(settings.amqp.urls == ["amqp://guest:guest@127.0.0.1:5673/"])
        #expect(settings.apns.endpoint.map { String(describing: $0) } == "localhost:2197")
        #expect(settings.apns.caFile == Fixtures.path("tls/ca.pem"))
        #expect(settings.credentials[2].kind == .pkcs12(file: privateP12, passwordFile: Fixtures.path("tls/client.p12.password")))

        let registry = try CredentialRegistry.load(settings)
        #expect(registry.entries.map(\.settings.name) == ["team-one", "team-two", "legacy-cert"])
        #expect(registry.entries.allSatisfy { String(describing: $0.endpoint) == "localhost:2197" })
        #expect(registry.entry(forTopic: "com.example.app")?.settings.name == "team-one")
        #expect(registry.entry(forTopic: "com.example.other.voip")?.settings.name == "team-two")
        #expect(registry.entry(named: "legacy-cert")?.settings.topics == [])
        #expect(ConfigurationCheck.problems(settings) == [])
    }

    @Test func theLocalDemoNamesItsFixturesRelatively() throws {
        let settings = try WorkerSettingsLoader.load(path: Sample.configFile("worker.local.yaml"), environment: [:])
        #expect(settings.apns.caFile == "Tests/Fixtures/tls/ca.pem")
        let expected: [CredentialKind] = [
            .token(teamID: "TEAMID0001", keyID: "TESTKEY001", keyFile: "Tests/Fixtures/keys/AuthKey_TESTKEY001.p8", allowInsecureKeyPermissions: true, refreshAge: 3000),
            .token(teamID: "TEAMID0002", keyID: "TESTKEY002", keyFile: "Tests/Fixtures/keys/AuthKey_TESTKEY002.p8", allowInsecureKeyPermissions: true, refreshAge: 3000),
            .pkcs12(file: "Tests/Fixtures/tls/client.p12", passwordFile: "Tests/Fixtures/tls/client.p12.password"),
        ]
        #expect(settings.credentials.map(\.kind) == expected)
        #expect(settings.credentials.map(\.topics) == [["com.example.app"], ["com.example.other"], []])
        #expect(try Fixtures.text("tls/client.p12.password") == "test-only-password\n")
    }
}
