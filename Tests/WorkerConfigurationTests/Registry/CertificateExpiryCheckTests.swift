import APNsCore
import Foundation
import Testing
import TestSupport
import TLS
import WorkerConfiguration

/// `check-config` on a certificate credential's expiry: a problem once expired, a warning within 30
/// days, nothing before; told apart by moving `now` around the fixture certificate's real notAfter.
@Suite struct CertificateExpiryCheckTests {
    private func settings() throws -> WorkerSettings {
        var settings = try WorkerSettingsLoader.load(yaml: Sample.credential, environment: [:])
        settings.credentials = [CredentialSettings(
            name: "team-one",
            kind: .token(teamID: "TEAMID0001", keyID: "TESTKEY001", keyFile: try Fixtures.privateCopy(of: "keys/AuthKey_TESTKEY001.p8"), allowInsecureKeyPermissions: false, refreshAge: 50 * 60),
            topics: ["com.example.app"]
        )]
        settings.credentials.append(CredentialSettings(
            name: "legacy-cert",
            kind: .pkcs12(file: try Fixtures.privateCopy(of: "tls/client.p12"), passwordFile: try TemporaryFile.write("test-only-password\n", mode: 0o600)),
            environment: .development, topics: ["com.example.legacy"]
        ))
        return settings
    }

    private func notAfter() throws -> Date {
        let context = try TLSContext(client: TLSClientConfiguration(
            trustsSystemStore: false, additionalTrustedCAFile: Fixtures.path("tls/ca.pem"),
            identity: .pkcs12(path: try Fixtures.privateCopy(of: "tls/client.p12"), password: "test-only-password")
        ))
        return try #require(context.clientCertificateNotAfter)
    }

    @Test func farFromExpiryNothing() throws {
        let check = ConfigurationCheck.check(try settings(), now: try notAfter().addingTimeInterval(-31 * 86_400))
        #expect(check.problems.isEmpty && check.warnings.isEmpty)
    }

    @Test func withinThirtyDaysAWarningWithTheKeyPathAndTheDate() throws {
        let settings = try settings()
        let check = ConfigurationCheck.check(settings, now: try notAfter().addingTimeInterval(-10.5 * 86_400))
        #expect(check.problems.isEmpty)
        let index = settings.credentials.count - 1
        #expect(check.warnings.map(\.path) == ["credentials[\(index)].p12_file"])
        #expect(check.warnings.first?.message.contains("in 10 day(s)") == true, "\(check.warnings)")
        #expect(check.warnings.first?.message.contains("2126-") == true, "\(check.warnings)")
    }

    @Test func expiredIsAProblem() throws {
        let check = ConfigurationCheck.check(try settings(), now: try notAfter().addingTimeInterval(60))
        #expect(check.problems.count == 1)
        #expect(check.problems.first?.message.contains("expired") == true)
        #expect(check.warnings.isEmpty)
    }

    @Test func tokenCredentialsHaveNoExpiry() throws {
        var settings = try settings()
        settings.credentials.removeLast()
        let registry = try CredentialRegistry.load(settings)
        #expect(registry.entries.allSatisfy { $0.certificateNotAfter == nil })
    }
}
