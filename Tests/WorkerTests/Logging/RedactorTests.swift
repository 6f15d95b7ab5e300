import Logging
import Testing
@testable import Worker
import NIOConcurrencyHelpers
import WorkerConfiguration

@Suite("Log redaction")
struct RedactorTests {
    static let jwt = "eyJhbGciOiJFUzI1NiIsImtpZCI6IlRFU1RLRVkwMDEifQ.eyJpc3MiOiJURUFNSUQwMDAxIiwiaWF0IjoxODAwMDAwMDAwfQ.MEUCIQDx-abc_def"
    static let token = String(repeating: "ab12", count: 16)

    @Test("JWTs, bearer values, PEM blocks, URL passwords and registered secrets are removed", arguments: [
        "authorization: bearer \(jwt)",
        "token \(jwt) rejected",
        "key -----BEGIN PRIVATE KEY-----\nMIGHAgEAMBMGByqGSM49AgEGCCqGSM49AwEHBG0wawIBAQQg\n-----END PRIVATE KEY----- loaded",
        "connecting to amqp://apns:s3cr3t-pass@rabbit:5672/prod",
        "p12 password is hunter2-registered",
    ])
    func removed(line: String) {
        Redactor.register("hunter2-registered")
        let redacted = Redactor.redact(line)
        for secret in [Self.jwt, "MIGHAgEAMBMGByqGSM49", "s3cr3t-pass", "hunter2-registered", "bearer ey"] {
            #expect(!redacted.contains(secret), "\(redacted)")
        }
    }

    @Test("a URL password that is its user's name is no secret: the user name stays readable in every line")
    func passwordEqualToTheUser() throws {
        var settings = WorkerSettings()
        settings.amqp.urls = ["amqp://rabbit-guest-name:rabbit-guest-name@h:5672/", "amqp://worker:a-real-s3cret@h:5672/"]
        WorkerLogging.registerSecrets(of: settings)
        #expect(Redactor.redact("connect to amqp://rabbit-guest-name@h:5672/ failed") == "connect to amqp://rabbit-guest-name@h:5672/ failed")
        #expect(!Redactor.redact("the password a-real-s3cret").contains("a-real-s3cret"))
    }

    @Test("device tokens keep their first eight digits only; ordinary text is untouched")
    func tokens() {
        #expect(Redactor.redact("device \(Self.token) gone") == "device ab12ab12… gone")
        #expect(Redactor.redact("job demo-17 delivered in 12 ms") == "job demo-17 delivered in 12 ms")
        #expect(Redactor.redact("amqp://rabbit:5672/") == "amqp://rabbit:5672/")
    }

    @Test("the quick checks that skip a pattern let every match through: any case of bearer, 64 hex digits of either case, not 63")
    func quickChecks() {
        #expect(Redactor.redact("Authorization: BEARER abc.def") == "Authorization: BEARER <redacted>")
        #expect(Redactor.redact("Bearer\tabc") == "Bearer <redacted>")
        let upper = Self.token.uppercased()
        #expect(Redactor.redact("device \(upper)") == "device \(upper.prefix(8))…")
        let short = String(Self.token.dropLast())
        #expect(Redactor.redact("not a token \(short)") == "not a token \(short)", "63 digits are not a device token")
        #expect(Redactor.redact("x -----BEGIN EC PRIVATE KEY-----abc") == "x <key material redacted>")
        #expect(Redactor.redact("job eyJ-like-id-7 done") == "job eyJ-like-id-7 done", "eyJ alone is no JWT")
    }

    @Test("threads share the patterns: lines redacted at once, from the first use on, come out as one at a time")
    func concurrently() async {
        let line = "auth BEARER abc for \(Self.token) at amqp://u:pw-9@h/ with \(Self.jwt)"
        let expected = "auth BEARER <redacted> for ab12ab12… at amqp://u:<redacted>@h/ with <jwt redacted>"
        let outputs = await withTaskGroup(of: [String].self) { group in
            for _ in 0..<8 {
                group.addTask { (0..<50).map { _ in Redactor.redact(line) } }
            }
            return await group.reduce(into: []) { $0 += $1 }
        }
        #expect(outputs.count == 400 && outputs.allSatisfy { $0 == expected }, "\(Set(outputs))")
    }

    @Test("the log handler redacts the message and every metadata value before they are written")
    func handler() {
        let sink = CapturingLogHandler()
        var logger = Logger(label: "test") { _ in RedactingLogHandler(wrapping: sink) }
        logger.logLevel = .trace
        logger[metadataKey: "url"] = "amqp://u:topsecret-value@h/"
        logger.error("sending with \(Self.jwt)", metadata: ["device": "\(Self.token)", "nested": .dictionary(["auth": "bearer \(Self.jwt)"])])
        let written = sink.lines.joined(separator: "\n")
        #expect(!written.contains(Self.jwt))
        #expect(!written.contains(Self.token))
        #expect(!written.contains("topsecret-value"))
        #expect(written.contains("<jwt redacted>"))
    }
}

/// Records what reaches it, rendered as text.
struct CapturingLogHandler: LogHandler {
    final class Store: Sendable {
        let lines = NIOLockedValueBox<[String]>([])
    }

    let store = Store()
    var logLevel: Logger.Level = .trace
    var metadata: Logger.Metadata = [:]
    var lines: [String] { store.lines.withLockedValue { $0 } }

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(event: LogEvent) {
        let all = metadata.merging(event.metadata ?? [:]) { $1 }
        store.lines.withLockedValue { $0.append("\(event.message) \(all)") }
    }
}
