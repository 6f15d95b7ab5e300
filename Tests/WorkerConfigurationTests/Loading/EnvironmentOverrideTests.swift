import APNsCore
import Testing
import WorkerConfiguration

@Suite struct EnvironmentOverrideTests {
    private func load(_ yaml: String, _ environment: [String: String]) throws -> WorkerSettings {
        try WorkerSettingsLoader.load(yaml: yaml, environment: environment)
    }

    @Test func aScalarReplacesTheFilesValue() throws {
        let settings = try load("amqp:\n  heartbeat: 15s\n" + Sample.credential, ["APNS_WORKER__AMQP__HEARTBEAT": "30s"])
        #expect(settings.amqp.heartbeat == .seconds(30))
    }

    @Test func aListInFlowSyntaxReplacesTheList() throws {
        let settings = try load(Sample.credential, ["APNS_WORKER__AMQP__URLS": "[amqp://a/, amqp://b/]"])
        #expect(settings.amqp.urls == ["amqp://a/", "amqp://b/"])
    }

    @Test func anIndexedCredentialFieldChangesOnlyThatCredential() throws {
        let yaml = Sample.credential + "  - {name: second, team_id: TEAMID0002, key_id: TESTKEY002, key_file: /keys/second.p8}\n"
        let settings = try load(yaml, ["APNS_WORKER__CREDENTIALS__1__KEY_FILE": "/x.p8", "APNS_WORKER__CREDENTIALS__1__TOPICS": "[com.b]"])
        guard case .token(_, _, let first, _, _) = settings.credentials[0].kind, case .token(_, _, let second, _, _) = settings.credentials[1].kind else {
            Issue.record("not token credentials")
            return
        }
        #expect(first == "/keys/main.p8")
        #expect(second == "/x.p8")
        #expect(settings.credentials[1].topics == ["com.b"])
    }

    @Test func overridesCreateKeysTheFileLacks() throws {
        let environment = [
            "APNS_WORKER__CREDENTIALS__0__NAME": "from-env",
            "APNS_WORKER__CREDENTIALS__0__TEAM_ID": "TEAMID0001",
            "APNS_WORKER__CREDENTIALS__0__KEY_ID": "TESTKEY001",
            "APNS_WORKER__CREDENTIALS__0__KEY_FILE": "/run/secrets/key.p8",
            "APNS_WORKER__CREDENTIALS__0__ENVIRONMENT": "development",
            "APNS_WORKER__CREDENTIALS__1__NAME": "second",
            "APNS_WORKER__CREDENTIALS__1__P12_FILE": "/run/secrets/b.p12",
            "APNS_WORKER__APNS__ENDPOINT": "localhost:2197",
        ]
        let settings = try load("worker:\n  name: file\n", environment)
        #expect(settings.credentials.map(\.name) == ["from-env", "second"])
        #expect(settings.credentials[0].environment == .development)
        #expect(settings.credentials[1].kind == .pkcs12(file: "/run/secrets/b.p12", passwordFile: nil))
        #expect(settings.apns.endpoint.map { String(describing: $0) } == "localhost:2197")
        #expect(settings.worker.name == "file")
    }

    @Test func aBadValueNamesTheVariable() {
        let problems = Sample.problems(Sample.credential, environment: ["APNS_WORKER__AMQP__HEARTBEAT": "soon"])
        #expect(problems.map(\.path) == ["amqp.heartbeat"])
        #expect(problems.first?.message.contains("APNS_WORKER__AMQP__HEARTBEAT") == true)
    }

    @Test func aMisspeltVariableIsAnUnknownKey() {
        let problems = Sample.problems(Sample.credential, environment: ["APNS_WORKER__AMQP__HEARTBAET": "30s"])
        #expect(problems.map(\.path) == ["amqp.heartbaet"])
        #expect(problems.first?.message.contains("APNS_WORKER__AMQP__HEARTBAET") == true)
    }

    @Test func anIndexPastTheNextEntryIsAProblem() {
        let problems = Sample.problems(Sample.credential, environment: ["APNS_WORKER__CREDENTIALS__5__NAME": "far"])
        #expect(problems.map(\.path) == ["credentials"])
        #expect(problems.first?.message.contains("APNS_WORKER__CREDENTIALS__5__NAME") == true)
    }

    @Test func aValueThatIsNotYAMLNamesTheVariable() {
        let problems = Sample.problems(Sample.credential, environment: ["APNS_WORKER__AMQP__URLS": "[amqp://a/"])
        #expect(problems.map(\.path) == ["amqp.urls"])
        #expect(problems.first?.message.contains("APNS_WORKER__AMQP__URLS") == true)
    }

    @Test func nullAndMappingsWork() throws {
        let settings = try load(Sample.credential, [
            "APNS_WORKER__METRICS__PORT": "null",
            "APNS_WORKER__AMQP__TLS": "{ca_file: /ca.pem, verify_hostname: false}",
            "APNS_WORKER__WORKER__DECLARE_TOPOLOGY": "false",
        ])
        #expect(settings.metrics.port == nil)
        #expect(settings.amqp.tls.caFile == "/ca.pem")
        #expect(!settings.amqp.tls.verifyHostname)
        #expect(!settings.worker.declareTopology)
    }

    @Test func otherVariablesAreIgnored() throws {
        let settings = try load(Sample.credential, ["HOME": "/root", "APNS_WORKER_AMQP_HEARTBEAT": "soon", "apns_worker__amqp__heartbeat": "soon"])
        #expect(settings.amqp.heartbeat == .seconds(15))
    }
}
