import APNsCore
import Foundation
import Testing
@testable import Worker

@Suite("Multicast tally: what a pass charges each token (no I/O)")
struct MulticastTallyTests {
    let policy = RetryPolicy(tiers: [.seconds(5), .seconds(30)], maxAttempts: 12)
    let now = Date(timeIntervalSince1970: 1_800_000_000)
    let previous = Tries(attempts: 3, deferrals: 1)

    func token(_ hex: String) throws -> DeviceToken { try DeviceToken(hex: hex) }

    func job() throws -> Job {
        let request = try NotificationRequest(deviceToken: token("aa"), topic: "com.example.app", payload: Array("{}".utf8))
        return Job(id: "m", request: request, credentialName: nil, environment: nil, deadline: nil, replyTo: nil,
                   previousAttempts: previous.attempts, previousDeferrals: previous.deferrals)
    }

    /// Records `outcome` for `token` with the verdict the worker would reach on it.
    func record(_ outcome: Result<APNsResponse, APNsSendError>, for token: DeviceToken, in tally: inout MulticastTally) throws {
        let job = try job()
        let tries = job.previousTries.after(processed: outcome.processedByAPNs)
        let verdict = policy.verdict(for: outcome, job: job, attempts: tries.attempts, deferrals: tries.deferrals, now: now, jitter: 1)
        tally.record(token, apnsID: APNsID.derived(fromJobID: "m", token: token), outcome: outcome, verdict: verdict)
    }

    @Test("one pass with a 503, a try APNs never processed and a token set aside: three copies, each charged only its own try")
    func chargesPerToken() throws {
        var tally = MulticastTally(keepsDelivered: false, repeated: 0)
        let (answered, unprocessed, setAside, delivered) = (try token("01"), try token("02"), try token("03"), try token("04"))
        try record(.success(.rejected(APNsRejection(status: 503, reason: .serviceUnavailable))), for: answered, in: &tally)
        try record(.failure(APNsSendError(.timedOut, .notProcessed, "no stream became free")), for: unprocessed, in: &tally)
        tally.postpone(setAside)
        try record(.success(.accepted(APNsAcceptance(apnsID: "x", uniqueID: nil))), for: delivered, in: &tally)

        let copies = tally.retrying.copies(after: previous)
        #expect(copies.map(\.tokens) == [[answered], [unprocessed], [setAside]])
        #expect(copies.map(\.tries) == [Tries(attempts: 4, deferrals: 1), Tries(attempts: 3, deferrals: 2), previous])
        #expect(tally.counts.retrying == 3 && tally.counts.delivered == 1)
        #expect(tally.processedAny, "the 503 and the delivery make the pass an attempt")
    }

    @Test("a pass whose tokens all failed alike makes one copy")
    func oneCopyPerKind() throws {
        var tally = MulticastTally(keepsDelivered: false, repeated: 0)
        for hex in ["01", "02", "03"] {
            try record(.success(.rejected(APNsRejection(status: 503, reason: .serviceUnavailable))), for: try token(hex), in: &tally)
        }
        let copies = tally.retrying.copies(after: previous)
        #expect(copies.count == 1)
        #expect(copies.first?.tokens.count == 3)
        #expect(copies.first?.tries == Tries(attempts: 4, deferrals: 1))
    }

    @Test("tries: an attempt when APNs may have processed the try, else a deferral")
    func triesAfter() {
        #expect(previous.after(processed: true) == Tries(attempts: 4, deferrals: 1))
        #expect(previous.after(processed: false) == Tries(attempts: 3, deferrals: 2))
    }
}
