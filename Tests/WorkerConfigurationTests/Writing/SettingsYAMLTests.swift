import APNsCore
import Testing
@testable import WorkerConfiguration

@Suite("WorkerSettings.yaml: a configuration file that reads back to the same settings")
struct SettingsYAMLTests {
    @Test("the defaults, with one credential, read back unchanged")
    func defaults() throws {
        var settings = WorkerSettings()
        settings.credentials = [CredentialSettings(name: "team-one", kind: .pkcs12(file: "/keys/one.p12", passwordFile: nil), environment: .production, topics: ["com.example.app"])]
        #expect(try WorkerSettingsLoader.load(yaml: settings.yaml, environment: [:]) == settings, "\(settings.yaml)")
    }

    @Test("every key away from its default reads back unchanged, awkward text included")
    func everyKey() throws {
        var settings = WorkerSettings()
        settings.worker.name = "worker: \"one\" # not a comment"
        settings.worker.prefetch = 321
        settings.worker.urgentPrefetch = 12
        settings.worker.maxConcurrentJobs = 77
        settings.worker.fleetSize = 9
        settings.worker.shards = 3
        settings.worker.shutdownTimeout = .milliseconds(2500)
        settings.worker.declareTopology = false
        settings.worker.multicastPacing = false
        settings.worker.maxAttempts = 7
        settings.worker.credentialBackoff = .seconds(90)
        settings.worker.credentialWatchInterval = .seconds(3)
        settings.amqp.urls = ["amqp://user:p%40ss@127.0.0.1:5673/vhost", "amqps://127.0.0.1:5674/"]
        settings.amqp.passwordFile = "/run/secrets/amqp password"
        settings.amqp.heartbeat = .seconds(7)
        settings.amqp.connectTimeout = .seconds(4)
        settings.amqp.startupTimeout = .seconds(30)
        settings.amqp.connectionName = "fleet\ta\u{2028}b \\ \"c\""
        settings.amqp.tls = AMQPTLSSection()
        settings.amqp.tls.caFile = "/tls/ca.pem"
        settings.amqp.tls.certificateFile = "/tls/client.pem"
        settings.amqp.tls.keyFile = "/tls/client.key"
        settings.amqp.tls.verifyPeer = false
        settings.amqp.tls.verifyHostname = false
        settings.topology.jobsExchange = "x.jobs"
        settings.topology.jobsRoutingKey = "go"
        settings.topology.jobsQueue = "x.jobs"
        settings.topology.partitions = 3
        settings.topology.urgentQueue = nil
        settings.topology.urgentRoutingKey = "fast"
        settings.topology.teamLanes = [TeamLane(name: "payments", queue: "x.jobs.payments", prefetch: 40), TeamLane(name: "news", queue: "x.news")]
        settings.topology.deliveryLimit = 9
        settings.topology.retryExchange = "x.retry"
        settings.topology.retryTiers = [.milliseconds(250), .seconds(90)]
        settings.topology.retryQueuePrefix = "x.retry."
        settings.topology.deadExchange = "x.dead"
        settings.topology.deadQueue = "x.dead"
        settings.topology.resultsExchange = "x.results"
        settings.topology.resultsQueue = nil
        settings.apns.endpoint = APNsEndpoint(host: "localhost", port: 2197)
        settings.apns.channelEndpoint = APNsEndpoint(host: "localhost", port: 2196)
        settings.apns.broadcastEndpoint = APNsEndpoint(host: "::1", port: 2195)
        settings.apns.caFile = "/tls/apns-ca.pem"
        settings.apns.trustSystemStore = false
        settings.apns.requestTimeout = .seconds(4)
        settings.apns.connectTimeout = .seconds(6)
        settings.apns.pingInterval = .seconds(30)
        settings.apns.pingTimeout = .seconds(5)
        settings.apns.connections = 3
        settings.apns.maxWaitingRequests = 500
        settings.apns.noProxy = [".internal", "localhost"]
        settings.apns.proxy = try HTTPProxy(url: "http://user:p%40ss@127.0.0.1:3128", bypass: settings.apns.noProxy)
        settings.apns.proxyFromEnvironment = false
        var limited = CredentialSettings(
            name: "team-one", kind: .token(teamID: "TEAMID0001", keyID: "TESTKEY001", keyFile: "/keys/AuthKey one.p8", allowInsecureKeyPermissions: true, refreshAge: 30 * 60),
            environment: .development, connections: 4, topics: ["com.example.app", "com.example.app.voip"], proxy: try HTTPProxy(url: "http://127.0.0.1:8080"), weight: 3
        )
        limited.rateLimit = 2000
        limited.topicRateLimits = ["com.example.app": 500, "com.example.app.voip": 50]
        settings.credentials = [
            limited,
            CredentialSettings(name: "legacy", kind: .pkcs12(file: "/keys/legacy.p12", passwordFile: "/keys/legacy.password"), environment: .production, topics: ["com.example.other"]),
            CredentialSettings(name: "pem", kind: .pem(certificateFile: "/keys/cert.pem", keyFile: "/keys/cert.key"), environment: .production, topics: []),
        ]
        settings.log.level = .debug
        settings.log.format = .json
        settings.metrics.host = "127.0.0.1"
        settings.metrics.port = nil
        // A setting added later must be set above too, or this test would not cover it.
        let defaults = WorkerSettings()
        let unchanged = Self.unchangedFields(settings.worker, defaults.worker) + Self.unchangedFields(settings.amqp, defaults.amqp)
            + Self.unchangedFields(settings.amqp.tls, defaults.amqp.tls) + Self.unchangedFields(settings.topology, defaults.topology)
            + Self.unchangedFields(settings.apns, defaults.apns) + Self.unchangedFields(settings.log, defaults.log) + Self.unchangedFields(settings.metrics, defaults.metrics)
        #expect(unchanged.isEmpty, "set these away from their defaults: \(unchanged)")
        let read = try WorkerSettingsLoader.load(yaml: settings.yaml, environment: [:])
        #expect(read == settings, "\(settings.yaml)")
        #expect(read.apns.proxy?.password == "p@ss", "the proxy's password survives the percent-encoding")
    }

    /// The stored properties of `section` still equal to `defaults`' (compared as text).
    static func unchangedFields<Section>(_ section: Section, _ defaults: Section) -> [String] {
        zip(Mirror(reflecting: section).children, Mirror(reflecting: defaults).children).compactMap { field, fallback in
            String(describing: field.value) == String(describing: fallback.value) ? field.label : nil
        }
    }
}
