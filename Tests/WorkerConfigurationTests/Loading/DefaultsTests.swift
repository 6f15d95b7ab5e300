import APNsCore
import Testing
import WorkerConfiguration

@Suite struct DefaultsTests {
    @Test func anEmptyFileLacksOnlyCredentials() {
        let problems = Sample.problems("")
        #expect(problems.map(\.path) == ["credentials"])
    }

    @Test func noFileAtAllStartsFromTheSameDefaults() {
        do {
            _ = try WorkerSettingsLoader.load(path: nil, environment: [:])
            Issue.record("loaded without credentials")
        } catch {
            #expect(error.problems.map(\.path) == ["credentials"])
        }
    }

    @Test func everyKeyHasItsDocumentedDefault() throws {
        let settings = try WorkerSettingsLoader.load(yaml: Sample.credential, environment: [:])
        #expect(settings.worker.name == WorkerSection.hostName)
        #expect(!settings.worker.name.isEmpty)
        #expect(settings.worker.prefetch == 500)
        #expect(settings.worker.shutdownTimeout == .seconds(20))
        #expect(settings.worker.declareTopology)
        #expect(settings.worker.maxAttempts == 5)
        #expect(settings.worker.credentialBackoff == .seconds(60))
        #expect(settings.worker.credentialWatchInterval == nil)

        #expect(settings.amqp.urls == ["amqp://guest:guest@localhost:5672/"])
        #expect(settings.amqp.passwordFile == nil)
        #expect(settings.amqp.heartbeat == .seconds(15))
        #expect(settings.amqp.connectTimeout == .seconds(10))
        #expect(settings.amqp.tls == AMQPTLSSection())
        #expect(settings.amqp.tls.caFile == nil && settings.amqp.tls.certificateFile == nil && settings.amqp.tls.keyFile == nil)
        #expect(settings.amqp.tls.verifyPeer && settings.amqp.tls.verifyHostname)
        #expect(settings.amqp.connectionName == "apns-worker")

        let topology = settings.topology
        #expect([topology.jobsExchange, topology.jobsRoutingKey, topology.jobsQueue] == ["apns.jobs", "send", "apns.jobs"])
        #expect([topology.urgentQueue, topology.urgentRoutingKey] == ["apns.jobs.urgent", "urgent"])
        #expect(settings.worker.urgentPrefetch == 100)
        #expect(topology.deliveryLimit == 20)
        #expect(topology.retryExchange == "apns.retry")
        #expect(topology.retryTiers == [.seconds(5), .seconds(30), .seconds(120), .seconds(600)])
        #expect(topology.retryQueueNames == [
            "apns.retry.5s", "apns.retry.30s", "apns.retry.2m", "apns.retry.10m",
            "apns.retry.urgent.5s", "apns.retry.urgent.30s", "apns.retry.urgent.2m", "apns.retry.urgent.10m",
        ])
        #expect([topology.deadExchange, topology.deadQueue] == ["apns.dead", "apns.dead"])
        #expect(topology.resultsExchange == "apns.results")
        #expect(topology.resultsQueue == "apns.results")

        #expect(settings.apns.endpoint == nil)
        #expect(settings.apns.caFile == nil)
        #expect(settings.apns.trustSystemStore)
        #expect(settings.apns.requestTimeout == .seconds(10))
        #expect(settings.apns.connectTimeout == .seconds(10))
        #expect(settings.apns.pingInterval == .seconds(60))
        #expect(settings.apns.pingTimeout == .seconds(10))
        #expect(settings.apns.connections == 2)
        #expect(settings.apns.maxWaitingRequests == 10_000)

        #expect(settings.log.level == .info)
        #expect(settings.log.format == .text)
        #expect(settings.metrics.host == "0.0.0.0")
        #expect(settings.metrics.port == 9090)
    }

    @Test func aCredentialHasItsDocumentedDefaults() throws {
        let credential = try #require(try WorkerSettingsLoader.load(yaml: Sample.credential, environment: [:]).credentials.first)
        #expect(credential.name == "main")
        #expect(credential.environment == .production)
        #expect(credential.connections == nil)
        #expect(credential.topics == [])
        #expect(credential.kind == .token(teamID: "TEAMID0001", keyID: "TESTKEY001", keyFile: "/keys/main.p8", allowInsecureKeyPermissions: false, refreshAge: 50 * 60))
    }

    @Test func nullMeansTheDefaultOrNoneWhereTheKeySaysSo() throws {
        let settings = try WorkerSettingsLoader.load(
            yaml: "worker:\namqp:\n  heartbeat: ~\ntopology:\n  results_queue: null\nmetrics:\n  port:\n" + Sample.credential,
            environment: [:]
        )
        #expect(settings.worker.prefetch == 500)
        #expect(settings.amqp.heartbeat == .seconds(15))
        #expect(settings.topology.resultsQueue == nil)
        #expect(settings.metrics.port == nil)
    }

    @Test func aCertificateCredentialIsInferredFromItsKeys() throws {
        let yaml = """
            credentials:
              - {name: a, p12_file: /a.p12, p12_password_file: /a.pw}
              - {name: b, certificate_file: /b.pem, key_file: /b.key, environment: development}
            """
        let credentials = try WorkerSettingsLoader.load(yaml: yaml, environment: [:]).credentials
        #expect(credentials.map(\.kind) == [.pkcs12(file: "/a.p12", passwordFile: "/a.pw"), .pem(certificateFile: "/b.pem", keyFile: "/b.key")])
        #expect(credentials[1].environment == .development)
    }
}
