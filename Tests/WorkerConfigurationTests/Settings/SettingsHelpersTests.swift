import APNsClient
import Foundation
import AMQP
import Testing
import Worker
import TestSupport
import WorkerConfiguration

@Suite struct SettingsHelpersTests {
    @Test func theClientConfigurationFollowsTheAPNsSection() throws {
        let yaml = """
            apns: {ca_file: /ca.pem, trust_system_store: false, request_timeout: 3s, connect_timeout: 4s,
                   ping_interval: 30s, ping_timeout: 2s, connections: 7, max_waiting_requests: 99}
            """
        let configuration = try WorkerSettingsLoader.load(yaml: yaml + "\n" + Sample.credential, environment: [:]).clientConfiguration
        #expect(configuration.additionalTrustedCAFile == "/ca.pem")
        #expect(!configuration.trustsSystemStore)
        #expect(configuration.requestTimeout == .seconds(3))
        #expect(configuration.connectTimeout == .seconds(4))
        #expect(configuration.pingInterval == .seconds(30))
        #expect(configuration.pingTimeout == .seconds(2))
        #expect(configuration.connectionsPerPool == 7)
        #expect(configuration.maximumWaitingRequests == 99)
    }

    @Test func brokerURLsBecomeClientOptions() throws {
        var amqp = AMQPSection()
        amqp.urls = ["amqp://guest:guest@localhost:5672/", "amqps://user:pa%40ss@rabbit:5671/%2F", "amqp://rabbit"]
        amqp.heartbeat = .seconds(30)
        amqp.connectionName = "fleet-a"
        let options = try amqp.clientOptions()
        let nodes = options.endpoints
        #expect(options.heartbeatSeconds == 30)
        #expect(options.connectionName == "fleet-a")
        #expect(nodes.map(\.host) == ["localhost", "rabbit", "rabbit"])
        #expect(nodes.map(\.port) == [5672, 5671, 5672])
        #expect(nodes.map(\.usesTLS) == [false, true, false])
        #expect(nodes.map(\.virtualHost) == ["/", "/", "/"], "one vhost for all: CheckConfigTests refuses two")
        #expect(nodes[1].password == "pa@ss")
        #expect(!nodes[1].description.contains("pa"))
    }

    @Test func thePasswordFileGoesToTheClient() throws {
        var amqp = AMQPSection()
        amqp.urls = ["amqp://apns:changeme@a/", "amqp://apns@b/"]
        let file = try TemporaryFile.write("s3cret\n", mode: 0o600)
        amqp.passwordFile = file
        // The client reads the file at each connection attempt, so a rotated password is picked up.
        #expect(try amqp.clientOptions().passwordFile == file)
        amqp.passwordFile = "/nonexistent/amqp-password"
        #expect(throws: ConfigurationProblems.self) { try amqp.clientOptions() }
    }

    @Test func aBadBrokerURLIsRefusedWithoutEchoingIt() {
        let problems = Sample.problems("amqp:\n  urls: amqp://user:hunter2@/vhost\n" + Sample.credential)
        #expect(problems.map(\.path) == ["amqp.urls"])
        #expect(!ConfigurationProblems(problems).description.contains("hunter2"))
    }

    @Test func relativePathsResolveAgainstADirectory() throws {
        let yaml = """
            amqp: {password_file: pw, tls: {ca_file: /abs/ca.pem}}
            apns: {ca_file: certs/ca.pem}
            credentials:
              - {name: a, team_id: TEAMID0001, key_id: TESTKEY001, key_file: keys/a.p8}
              - {name: b, p12_file: b.p12}
            """
        let settings = try WorkerSettingsLoader.load(yaml: yaml, environment: [:]).resolvingRelativePaths(against: "/srv")
        #expect(settings.amqp.passwordFile == "/srv/pw")
        #expect(settings.amqp.tls.caFile == "/abs/ca.pem")
        #expect(settings.apns.caFile == "/srv/certs/ca.pem")
        #expect(settings.credentials[1].kind == .pkcs12(file: "/srv/b.p12", passwordFile: nil))
    }

    @Test func aBrokenCAFileIsACheckProblem() throws {
        var settings = try WorkerSettingsLoader.load(yaml: Sample.credential, environment: [:])
        settings.credentials = []
        settings.apns.caFile = try TemporaryFile.write("not a certificate", mode: 0o600)
        let problems = ConfigurationCheck.problems(settings)
        #expect(problems.map(\.path) == ["credentials", "apns.ca_file"])
    }
}
