import APNsClient
import CoreMetrics
import Synchronization
import APNsCore
import Foundation
import Logging

/// Sending a multicast job: its tokens fanned out over the APNs streams, each answer decided as a
/// single job's would be, and the pass turned into one result (or one per token), a retry copy holding
/// only the tokens to retry, and a dead letter holding only the tokens given up.
extension JobProcessor {
    /// One token's answer from APNs.
    struct TokenAnswer: Sendable {
        let token: DeviceToken
        let apnsID: APNsID
        let outcome: Result<APNsResponse, APNsSendError>
    }

    /// Sends every token of `pending`'s job and returns what to publish.
    ///
    /// At most ``multicastWindow`` of the job's requests are in flight, each holding one of the
    /// worker-wide ``permits``, so a large job neither holds thousands of requests in memory nor
    /// queues them ahead of other jobs. Tokens not sent because the credential got paused or the
    /// worker is draining go to the retry copy without counting an attempt.
    func sendMulticast(_ pending: PendingSend, _ multicast: Multicast) async -> [Publication] {
        let window = multicastWindow
        let tally = await withTaskGroup(of: TokenAnswer.self, returning: MulticastTally.self) { group in
            var tally = startTally(multicast)
            var inFlight = 0
            for token in multicast.tokens {
                if draining.load(ordering: .relaxed) || Task.isCancelled || gate.pausedUntil(pending.credentialName, at: now()) != nil {
                    tally.postpone(token)
                    continue
                }
                if inFlight >= window, let answer = await group.next() {
                    inFlight -= 1
                    record(answer, of: pending, into: &tally)
                }
                await permits.acquire()
                inFlight += 1
                group.addTask { await self.send(token, of: pending) }
            }
            for await answer in group { record(answer, of: pending, into: &tally) }
            return tally
        }
        return conclude(pending, multicast: tally)
    }

    /// Every token expired before it was sent (the job's deadline had passed when it arrived).
    @inline(never)
    func expired(_ pending: PendingSend, _ multicast: Multicast) -> [Publication] {
        var tally = startTally(multicast)
        for token in multicast.tokens {
            tally.expire(token, apnsID: JobDecoder.derivedAPNsID(jobID: pending.job.id, token: token), because: "deadline passed before sending")
        }
        return conclude(pending, multicast: tally)
    }

    private func startTally(_ multicast: Multicast) -> MulticastTally {
        var tally = MulticastTally(keepsDelivered: multicast.resultStyle == .perToken, repeated: multicast.repeatedTokens)
        for invalid in multicast.invalidTokens { tally.reject(invalid) }
        return tally
    }

    /// One token's request, under the apns-id derived from the job and the token.
    private func send(_ token: DeviceToken, of pending: PendingSend) async -> TokenAnswer {
        metrics.multicastInFlight.record(permits.inUse)
        defer { permits.release() }
        let apnsID = JobDecoder.derivedAPNsID(jobID: pending.job.id, token: token)
        let request = pending.job.request.addressed(to: token, apnsID: apnsID)
        do {
            return TokenAnswer(token: token, apnsID: apnsID, outcome: .success(try await sender.send(request, credential: pending.credential, endpoint: pending.endpoint)))
        } catch {
            return TokenAnswer(token: token, apnsID: apnsID, outcome: .failure(Self.sendError(error)))
        }
    }

    /// The verdict on one token's answer, exactly as a single job's (same attempts, same policy).
    @inline(never)
    private func record(_ answer: TokenAnswer, of pending: PendingSend, into tally: inout MulticastTally) {
        metrics.multicastRequests.increment()
        let job = pending.job
        let processed = if case .failure(let error) = answer.outcome { error.outcome != .notProcessed } else { true }
        let verdict = policy.verdict(
            for: answer.outcome, job: job, attempts: job.previousAttempts + (processed ? 1 : 0),
            deferrals: job.previousDeferrals + (processed ? 0 : 1), now: now()
        )
        if case .credentialRefused(let lastError) = verdict, tally.credentialRefusal == nil {
            let until = now().addingTimeInterval(credentialBackoff.seconds)
            gate.pause(pending.credentialName, until: until)
            logger.error("APNs refused credential; pausing it", metadata: ["credential": "\(pending.credentialName)", "error": "\(lastError)", "until": "\(until)", "job": "\(job.id)"])
        }
        tally.record(answer.token, apnsID: answer.apnsID, outcome: answer.outcome, verdict: verdict)
    }
}
