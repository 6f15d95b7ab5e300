import APNsClient
import APNsCore
import Foundation
import Testing
@testable import Worker

@Suite("Retry policy (no I/O)")
struct RetryPolicyTests {
    let policy = RetryPolicy(tiers: [.seconds(5), .seconds(30), .seconds(120), .seconds(600)], maxAttempts: 5)
    let now = Date(timeIntervalSince1970: 1_800_000_000)

    func job(deadline: Date? = nil) throws -> Job {
        let request = try NotificationRequest(deviceToken: DeviceToken(hex: "abcd"), topic: "com.example.app", payload: Array("{}".utf8))
        return Job(id: "j", request: request, credentialName: nil, environment: nil, deadline: deadline, replyTo: nil, previousAttempts: 0)
    }

    func rejection(_ status: Int, _ reason: String, retryAfter: Int? = nil) -> Result<APNsResponse, APNsSendError> {
        .success(.rejected(APNsRejection(status: status, reason: APNsReason(name: reason), retryAfterSeconds: retryAfter)))
    }

    @Test("accepted is delivered; a permanent rejection is rejected, never retried")
    func finalAnswers() throws {
        let acceptance = APNsAcceptance(apnsID: "x", uniqueID: nil)
        #expect(policy.verdict(for: .success(.accepted(acceptance)), job: try job(), attempts: 1, now: now) == .delivered(acceptance))
        for reason in ["BadDeviceToken", "Unregistered", "PayloadTooLarge", "DeviceTokenNotForTopic"] {
            let status = APNsReason(name: reason).documentedStatus!
            guard case .rejected = policy.verdict(for: rejection(status, reason), job: try job(), attempts: 1, now: now) else {
                Issue.record("\(reason) was not a final rejection"); continue
            }
        }
    }

    @Test("transient failures climb the tiers attempt by attempt, then fail with the last code")
    func tiers() throws {
        var tiersSeen: [Int] = []
        for attempt in 1...4 {
            guard case .retry(let tier, let delay, _) = policy.verdict(for: rejection(503, "ServiceUnavailable"), job: try job(), attempts: attempt, now: now, jitter: 1) else {
                Issue.record("attempt \(attempt) was not retried"); return
            }
            tiersSeen.append(tier)
            #expect(delay == policy.tiers[tier])
        }
        #expect(tiersSeen == [0, 1, 2, 3])
        let last = policy.verdict(for: rejection(503, "ServiceUnavailable"), job: try job(), attempts: 5, now: now)
        guard case .failed(let code, _, let rejection) = last else { Issue.record("not failed: \(last)"); return }
        #expect(code == "ServiceUnavailable")
        #expect(rejection?.status == 503)
    }

    @Test("errors without an answer (timeouts, lost connections) are retried too")
    func sendErrors() throws {
        for error in [APNsSendError(.timedOut, .unknown, "t"), APNsSendError(.connectionLost, .unknown, "c"), APNsSendError(.connectFailed, .notProcessed, "d")] {
            guard case .retry = policy.verdict(for: .failure(error), job: try job(), attempts: 1, now: now) else {
                Issue.record("\(error) was not retried"); continue
            }
        }
        guard case .failed(let code, _, nil) = policy.verdict(for: .failure(APNsSendError(.timedOut, .unknown, "t")), job: try job(), attempts: 5, now: now) else {
            Issue.record("exhausted timeouts did not fail"); return
        }
        #expect(code == "TimedOut")
    }

    @Test("Retry-After moves the job to the first tier long enough")
    func retryAfter() throws {
        guard case .retry(let tier, let delay, _) = policy.verdict(for: rejection(429, "TooManyRequests", retryAfter: 20), job: try job(), attempts: 1, now: now, jitter: 0.8) else {
            Issue.record("not retried"); return
        }
        #expect(tier == 1)
        #expect(delay >= .seconds(20) && delay <= .seconds(30))
    }

    @Test("jitter shortens the delay by at most a fifth")
    func jitter() {
        let delays = (0..<200).map { _ in policy.schedule(attempts: 2, retryAfter: nil, jitter: Double.random(in: 0.8...1.0)).delay }
        #expect(delays.allSatisfy { $0 >= .seconds(24) && $0 <= .seconds(30) })
        #expect(Set(delays).count > 10)
    }

    @Test("past the deadline, or when the next try would land after it, the job expires")
    func deadlines() throws {
        #expect(policy.verdict(for: rejection(500, "InternalServerError"), job: try job(deadline: now.addingTimeInterval(-1)), attempts: 1, now: now) == .expired(lastError: "500 InternalServerError"))
        #expect(policy.verdict(for: rejection(500, "InternalServerError"), job: try job(deadline: now.addingTimeInterval(2)), attempts: 1, now: now, jitter: 1) == .expired(lastError: "500 InternalServerError"))
        guard case .retry = policy.verdict(for: rejection(500, "InternalServerError"), job: try job(deadline: now.addingTimeInterval(60)), attempts: 1, now: now) else {
            Issue.record("not retried within the deadline"); return
        }
    }

    @Test("credential refusals pause the credential instead of burning attempts")
    func credentials() throws {
        for reason in ["InvalidProviderToken", "BadCertificate", "ExpiredProviderToken"] {
            let verdict = policy.verdict(for: rejection(403, reason), job: try job(), attempts: 1, now: now)
            if reason == "ExpiredProviderToken" {
                // The client already retried it with a fresh token: what remains is transient.
                guard case .retry = verdict else { Issue.record("\(reason): \(verdict)"); continue }
            } else {
                guard case .credentialRefused = verdict else { Issue.record("\(reason): \(verdict)"); continue }
            }
        }
        guard case .credentialRefused = policy.verdict(for: .failure(APNsSendError(.tlsFailed, .notProcessed, "bad cert")), job: try job(), attempts: 1, now: now) else {
            Issue.record("TLS failure is not credential-level"); return
        }
    }

    @Test("tries APNs never processed do not use up attempts, but are bounded by their own budget")
    func deferrals() throws {
        let unprocessed = APNsSendError(.timedOut, .notProcessed, "no stream became free")
        for deferrals in 1..<policy.maxDeferrals {
            guard case .retry = policy.verdict(for: .failure(unprocessed), job: try job(), attempts: 0, deferrals: deferrals, now: now) else {
                Issue.record("deferral \(deferrals) was not retried"); return
            }
        }
        guard case .failed(let code, let detail, _) = policy.verdict(for: .failure(unprocessed), job: try job(), attempts: 0, deferrals: policy.maxDeferrals, now: now) else {
            Issue.record("the deferral budget did not end"); return
        }
        #expect(code == "TimedOut")
        #expect(detail.contains("did not process"))
        // A processed failure at the attempt limit still fails, whatever the deferrals.
        guard case .failed = policy.verdict(for: .failure(APNsSendError(.timedOut, .unknown, "t")), job: try job(), attempts: 5, deferrals: 0, now: now) else {
            Issue.record("attempts stopped counting"); return
        }
    }
}

@Suite("Retry policy: a request that cannot be sent")
struct RetryPolicyInvalidRequestTests {
    @Test("is failed at once, never retried: retrying cannot make a header carriable")
    func invalidRequestIsFinal() throws {
        let policy = RetryPolicy(tiers: [.seconds(5)], maxAttempts: 3)
        let job = try JobDecoder.decode(JobEnvelope(body: Array(#"{"id":"j","device_token":"abcd","topic":"com.example.app","payload":{}}"#.utf8))).get()
        let verdict = policy.verdict(for: .failure(APNsSendError(.invalidRequest, .notProcessed, "header apns-topic: bad")), job: job, attempts: 0, now: Date())
        #expect(verdict == .failed(code: "InvalidRequest", detail: "header apns-topic: bad", rejection: nil))
    }
}
