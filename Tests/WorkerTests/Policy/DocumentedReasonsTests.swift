import APNsCore
import DeadLetterTools
import Foundation
import Testing
import TestSupport
@testable import Worker

/// The `last-error` examples of docs/messages.md are what the code writes, and every `--reason` the
/// docs give selects something a letter can have (the README once gave `HTTP503`, which none has).
@Suite("Documented reasons and last-error texts")
struct DocumentedReasonsTests {
    let policy = RetryPolicy(tiers: [.seconds(5), .seconds(30), .seconds(120), .seconds(600)], maxAttempts: 5)
    let now = Date(timeIntervalSince1970: 1_800_000_000)

    static func text(_ file: String) throws -> String {
        try String(contentsOf: Fixtures.repository.appendingPathComponent(file), encoding: .utf8)
    }

    func job(deadline: Date? = nil) throws -> Job {
        let request = try NotificationRequest(deviceToken: DeviceToken(hex: "abcd"), topic: "com.example.app", payload: Array("{}".utf8))
        return Job(id: "j", request: request, credentialName: nil, environment: nil, deadline: deadline, replyTo: nil, previousAttempts: 0)
    }

    func rejection(_ status: Int, _ reason: String) -> Result<APNsResponse, APNsSendError> {
        .success(.rejected(APNsRejection(status: status, reason: APNsReason(name: reason))))
    }

    /// What the worker writes as `last-error` for the cases docs/messages.md shows.
    func lastErrors() throws -> [String] {
        let retry = policy.verdict(for: rejection(503, "ServiceUnavailable"), job: try job(), attempts: 1, now: now, jitter: 1)
        let exhausted = policy.verdict(for: rejection(503, "ServiceUnavailable"), job: try job(), attempts: 5, now: now, jitter: 1)
        let expired = policy.verdict(for: rejection(429, "TooManyRequests"), job: try job(deadline: now.addingTimeInterval(-1)), attempts: 1, now: now)
        let filler = String(repeating: "x", count: 5031 - #"{"aps":{"alert":""}}"#.utf8.count)
        let body = #"{"id":"big","device_token":"\#(String(repeating: "ab", count: 32))","topic":"com.example.app","payload":{"aps":{"alert":"\#(filler)"}}}"#
        guard case .failure(let tooLarge) = JobDecoder.decode(JobEnvelope(body: Array(body.utf8), messageID: nil)) else {
            throw TestFailure("a 5031-byte payload decoded")
        }
        return [retry.lastError, exhausted.lastError, tooLarge.description, expired.lastError, PublicationPlanner.pausedReason("team-shop")].map { $0 ?? "nil" }
    }

    @Test func theLastErrorExamplesAreWhatTheWorkerWrites() throws {
        let row = try #require(try Self.text("docs/messages.md").split(separator: "\n").first { $0.hasPrefix("| `last-error` |") })
        let errors = try lastErrors()
        for error in errors { #expect(row.contains("`\(error)`"), "docs/messages.md shows no `\(error)`") }
        #expect(errors.allSatisfy { DeadLetterReason.isKnown(DeadLetter.code(of: $0)) || DeadLetter.code(of: $0) == "CredentialPaused" })
    }

    @Test func everyReasonTheDocsSelectByIsOneALetterCanHave() throws {
        var files = ["README.md"]
        files += try FileManager.default.contentsOfDirectory(atPath: Fixtures.repository.appendingPathComponent("docs").path).filter { $0.hasSuffix(".md") }.map { "docs/\($0)" }
        var reasons: [String] = []
        for file in files {
            reasons += try Self.text(file).matches(of: #/--reason (\S+)/#).map { String($0.output.1) }
        }
        #expect(reasons.count >= 4, "\(reasons)")
        for reason in reasons {
            #expect(DeadLetterReason.isKnown(reason), "the docs select by --reason \(reason), which no dead letter has")
            // HTTP503 is a code letters can have, but only for a 503 without a reason: not what to show.
            #expect(DeadLetterReason.reasonsUsuallyWritten(insteadOf: reason).isEmpty, "the docs select by --reason \(reason); letters usually read \(DeadLetterReason.reasonsUsuallyWritten(insteadOf: reason))")
        }
    }
}

struct TestFailure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
