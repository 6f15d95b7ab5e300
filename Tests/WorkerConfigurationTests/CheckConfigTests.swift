import Foundation
import Testing
import TestSupport
import WorkerConfiguration

/// `check-config` reports every problem of a file in one run, whatever else is wrong in it: a refused
/// value elsewhere must not hide a missing or world-readable key file.
@Suite struct CheckConfigTests {
    @Test func aMissingKeyFileIsReportedBesideRefusedValues() throws {
        let readable = try Fixtures.privateCopy(of: "keys/AuthKey_TESTKEY001.p8", mode: 0o644)
        let file = try TemporaryFile.write("""
            credentials:
              - name: team-shop
                team_id: TEAMID0001
                key_id: TESTKEY001
                key_file: \(try Fixtures.privateCopy(of: "keys/AuthKey_TESTKEY001.p8"))
                environment: sandbox
                topics: [com.example.shop]
              - name: team-news
                team_id: TEAMID0001
                key_id: TESTKEY001
                key_file: /nonexistent/AuthKey_TESTKEY001.p8
                topics: [com.example.news]
              - name: team-games
                team_id: TEAMID0001
                key_id: TESTKEY001
                key_file: \(readable)
                topics: [com.example.games]
            worker:
              prefecth: 10

            """, mode: 0o600)
        let report = ConfigurationCheck.check(path: file, environment: [:])
        let paths = report.problems.map(\.path)
        #expect(paths.contains("credentials[0].environment"), "\(report.problems)")
        #expect(paths.contains("worker.prefecth"), "\(report.problems)")
        #expect(report.problems.contains { $0.path == "credentials[1].key_file" && $0.message.contains("cannot read key file") }, "\(report.problems)")
        #expect(report.problems.contains { $0.path == "credentials[2].key_file" && $0.message.contains("readable by") }, "\(report.problems)")
        #expect(report.problems.count == 4, "\(report.problems)")
    }

    @Test func aRefusedEnvironmentDoesNotHideTheSameCredentialsKeyFile() throws {
        // The three mistakes of the first-hour report in one credential: all three at once.
        let file = try TemporaryFile.write("""
            credentials:
              - name: team-shop
                team_id: TEAMID0001
                key_id: TESTKEY001
                key_file: /nonexistent/AuthKey_TESTKEY001.p8
                environment: sandbox
                topicz: [com.example.shop]

            """, mode: 0o600)
        let report = ConfigurationCheck.check(path: file, environment: [:])
        let paths = Set(report.problems.map(\.path))
        #expect(paths == ["credentials[0].environment", "credentials[0].topicz", "credentials[0].key_file"], "\(report.problems)")
        #expect(report.problems.contains { $0.path == "credentials[0].key_file" && $0.message.contains("cannot read key file") })
    }

    @Test func aBrokerURLsQueryDrawsAWarningNamingItsKeys() throws {
        let file = try TemporaryFile.write("""
            amqp:
              urls: ["amqp://guest:secret-pass@127.0.0.1:5672/jobs?heartbeat=5&channel_max=10", "amqp://127.0.0.1:5673/jobs"]

            """, mode: 0o600)
        let report = ConfigurationCheck.check(path: file, environment: [:])
        #expect(report.warnings.map(\.path) == ["amqp.urls[0]"], "\(report.warnings)")
        #expect(report.warnings.first?.message.contains("heartbeat, channel_max") == true)
        #expect(!report.warnings.contains { $0.message.contains("secret-pass") })
    }

    @Test func aCredentialWhoseOwnValuesAreRefusedIsNotOpened() throws {
        // Its key_file is a placeholder behind the refused key_id: opening it would report noise.
        let file = try TemporaryFile.write("""
            credentials:
              - name: team-shop
                team_id: TEAMID0001
                key_id: not-an-id
                key_file: /nonexistent/key.p8

            """, mode: 0o600)
        let report = ConfigurationCheck.check(path: file, environment: [:])
        #expect(report.problems.map(\.path) == ["credentials[0].key_id"], "\(report.problems)")
    }

    @Test func aCleanFileHasNoProblems() throws {
        let file = try TemporaryFile.write("""
            credentials:
              - name: team-shop
                team_id: TEAMID0001
                key_id: TESTKEY001
                key_file: \(try Fixtures.privateCopy(of: "keys/AuthKey_TESTKEY001.p8"))

            """, mode: 0o600)
        let report = ConfigurationCheck.check(path: file, environment: [:])
        #expect(report.problems.isEmpty, "\(report.problems)")
        #expect(report.settings?.credentials.map(\.name) == ["team-shop"])
    }

    @Test func urlsNamingTwoVhostsAreAProblem() throws {
        let file = try TemporaryFile.write("""
            amqp:
              urls: ["amqp://a:5672/team-a", "amqp://b:5672/team-b"]

            """, mode: 0o600)
        let report = ConfigurationCheck.check(path: file, environment: [:])
        let vhosts = report.problems.filter { $0.path.hasPrefix("amqp") }
        #expect(vhosts.map(\.path) == ["amqp.urls[1]"], "\(report.problems)")
        #expect(vhosts.first?.message.contains("team-a") == true)
    }
}
