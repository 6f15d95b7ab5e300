import Testing
import WorkerConfiguration

/// One bad configuration and the key path its single problem must name.
struct BadValue: Sendable, CustomTestStringConvertible {
    let yaml: String
    let path: String
    /// Words the message must contain.
    let mentions: String

    var testDescription: String { path }

    /// A token credential with `extra` lines and without the keys in `omitting`.
    static func credential(_ extra: String = "", omitting: Set<String> = []) -> String {
        let keys = [("name", "main"), ("team_id", "TEAMID0001"), ("key_id", "TESTKEY001"), ("key_file", "/keys/main.p8")]
        let lines = keys.filter { !omitting.contains($0.0) }.map { "    \($0.0): \($0.1)" }
        return "credentials:\n  -\n" + lines.joined(separator: "\n") + (extra.isEmpty ? "" : "\n    " + extra) + "\n"
    }
}

@Suite struct ProblemTests {
    static let cases: [BadValue] = [
        BadValue(yaml: "amqp:\n  heartbeat: soon\n" + BadValue.credential(), path: "amqp.heartbeat", mentions: "duration"),
        BadValue(yaml: "worker:\n  shutdown_timeout: 5 minutes\n" + BadValue.credential(), path: "worker.shutdown_timeout", mentions: "duration"),
        BadValue(yaml: "worker:\n  prefetch: 0\n" + BadValue.credential(), path: "worker.prefetch", mentions: "between 1 and 65535"),
        BadValue(yaml: "worker:\n  max_attempts: many\n" + BadValue.credential(), path: "worker.max_attempts", mentions: "whole number"),
        BadValue(yaml: BadValue.credential("refresh_age: 19m"), path: "credentials[0].refresh_age", mentions: "between 20m and 59m"),
        BadValue(yaml: BadValue.credential("refresh_age: 60m"), path: "credentials[0].refresh_age", mentions: "between 20m and 59m"),
        BadValue(yaml: BadValue.credential("environment: staging"), path: "credentials[0].environment", mentions: "production or development"),
        BadValue(yaml: BadValue.credential("type: magic"), path: "credentials[0].type", mentions: "token or certificate"),
        BadValue(yaml: BadValue.credential(omitting: ["team_id"]), path: "credentials[0].team_id", mentions: "required"),
        BadValue(yaml: BadValue.credential(omitting: ["name"]), path: "credentials[0].name", mentions: "required"),
        BadValue(yaml: BadValue.credential("key_id: key1"), path: "", mentions: "duplicated keys: key_id"),
        BadValue(yaml: BadValue.credential("type: token\n    p12_file: /x.p12"), path: "credentials[0].p12_file", mentions: "certificate credentials only"),
        BadValue(yaml: BadValue.credential("p12_file: /x.p12"), path: "credentials[0].type", mentions: "both token and certificate"),
        BadValue(yaml: "topology:\n  retry_tiers: [5s, 30s, 30s]\n" + BadValue.credential(), path: "topology.retry_tiers[2]", mentions: "longer than the tier before"),
        BadValue(yaml: "topology:\n  retry_tiers: [1m, 30s]\n" + BadValue.credential(), path: "topology.retry_tiers[1]", mentions: "increase strictly"),
        BadValue(yaml: "topology:\n  retry_tiers: []\n" + BadValue.credential(), path: "topology.retry_tiers", mentions: "at least one"),
        BadValue(yaml: "amqp:\n  heartbaet: 30s\n" + BadValue.credential(), path: "amqp.heartbaet", mentions: "did you mean heartbeat"),
        BadValue(yaml: "amqp:\n  heartbeat: [1s, 2s]\n" + BadValue.credential(), path: "amqp.heartbeat", mentions: "not a list"),
        BadValue(yaml: "amqp:\n  heartbeat: 1500ms\n" + BadValue.credential(), path: "amqp.heartbeat", mentions: "whole seconds"),
        BadValue(yaml: "amqp:\n  urls: [http://broker/]\n" + BadValue.credential(), path: "amqp.urls[0]", mentions: "broker URL"),
        BadValue(yaml: "amqp:\n  tls: {certificate_file: /c.pem}\n" + BadValue.credential(), path: "amqp.tls.key_file", mentions: "required with certificate_file"),
        BadValue(yaml: "apns:\n  endpoint: localhost\n" + BadValue.credential(), path: "apns.endpoint", mentions: "host:port"),
        BadValue(yaml: "apns:\n  trust_system_store: false\n" + BadValue.credential(), path: "apns.trust_system_store", mentions: "no ca_file"),
        BadValue(yaml: "log:\n  level: loud\n" + BadValue.credential(), path: "log.level", mentions: "one of trace"),
        BadValue(yaml: "metrics: 9090\n" + BadValue.credential(), path: "metrics", mentions: "mapping"),
        BadValue(yaml: "credentials:\n  name: main\n", path: "credentials", mentions: "list"),
        BadValue(yaml: "wroker: {}\n" + BadValue.credential(), path: "wroker", mentions: "did you mean worker"),
        BadValue(yaml: "credentials:\n  - {name: old, type: certificate}\n", path: "credentials[0].p12_file", mentions: "required"),
    ]

    @Test(arguments: cases)
    func aBadValueIsReportedAtItsPath(_ bad: BadValue) {
        let problems = Sample.problems(bad.yaml)
        #expect(problems.map(\.path) == [bad.path], "\(problems)")
        #expect(problems.first?.message.contains(bad.mentions) == true, "\(problems)")
    }

    @Test func everyProblemIsReportedNotJustTheFirst() {
        let yaml = """
            worker:
              prefetch: 0
              max_attempts: 101
            amqp:
              heartbaet: 30s
            topology:
              retry_tiers: [30s, 5s]
            credentials:
              - name: a
                team_id: short
                key_file: /a.p8
                refresh_age: 10m
              - name: a
                type: carrier-pigeon
            """
        let problems = Sample.problems(yaml)
        #expect(problems.map(\.path) == [
            "worker.prefetch", "worker.max_attempts", "amqp.heartbaet", "topology.retry_tiers[1]",
            "credentials[0].team_id", "credentials[0].key_id", "credentials[0].refresh_age", "credentials[1].type",
            "credentials[1].name",
        ])
    }

    @Test func theDescriptionListsOneProblemPerLine() {
        let problems = ConfigurationProblems([
            ConfigurationProblem(path: "amqp.heartbeat", message: "bad"),
            ConfigurationProblem(path: "", message: "cannot read configuration file /x"),
        ])
        #expect(problems.description == "amqp.heartbeat: bad\ncannot read configuration file /x")
    }

    @Test func yamlThatDoesNotParseIsOneLineWithoutQuotingTheFile() {
        let problems = Sample.problems("amqp:\n  urls: [amqp://u:hunter2@host/\n")
        #expect(problems.count == 1)
        #expect(problems.first?.message.contains("not valid YAML: line 3") == true, "\(problems)")
        #expect(problems.first?.message.contains("hunter2") == false)
        #expect(problems.first?.message.contains("\n") == false)
    }

    @Test func aMissingFileIsOneProblemNamingIt() {
        do {
            _ = try WorkerSettingsLoader.load(path: "/nonexistent/worker.yaml", environment: [:])
            Issue.record("loaded a missing file")
        } catch {
            #expect(error.problems.map(\.message) == ["cannot read configuration file /nonexistent/worker.yaml"])
        }
    }
}
