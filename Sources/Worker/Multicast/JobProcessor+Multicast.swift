import APNsClient
import CoreMetrics
import Synchronization
import APNsCore
import Foundation
import Logging
import NIOConcurrencyHelpers

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
    /// Each request holds one of the worker-wide ``permits``, taken by this loop before the request
    /// starts, so all multicast jobs together keep no more requests in flight than the job
    /// concurrency, and jobs waiting for permits get them in turn. The group discards finished
    /// requests (each records its answer in the job's tally as it ends), so a job holds only its
    /// requests in flight, never a finished task per token. Tokens not sent because the credential got
    /// paused or the worker is draining go to the retry copy without counting an attempt.
    func sendMulticast(_ pending: PendingSend, _ multicast: Multicast) async -> [Publication] {
        let tally = NIOLockedValueBox(startTally(multicast))
        await withDiscardingTaskGroup { group in
            var stopped = false
            for (index, token) in multicast.tokens.enumerated() {
                // The gate is a lock and a clock read: looked at every 32 tokens, and at once after a refusal.
                if !stopped, index % 32 == 0 || tally.withLockedValue({ $0.credentialRefusal != nil }) {
                    stopped = draining.load(ordering: .relaxed) || Task.isCancelled || gate.pausedUntil(pending.credentialName, at: now()) != nil
                    metrics.multicastInFlight.record(permits.inUse)
                }
                if stopped {
                    tally.withLockedValue { $0.postpone(token) }
                    continue
                }
                await permits.acquire()
                group.addTask {
                    let answer = await self.send(token, of: pending)
                    self.record(answer, of: pending, into: tally)
                }
            }
        }
        return conclude(pending, multicast: tally.withLockedValue { $0 })
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
    private func record(_ answer: TokenAnswer, of pending: PendingSend, into tally: NIOLockedValueBox<MulticastTally>) {
        metrics.multicastRequests.increment()
        let job = pending.job
        let processed = if case .failure(let error) = answer.outcome { error.outcome != .notProcessed } else { true }
        let verdict = policy.verdict(
            for: answer.outcome, job: job, attempts: job.previousAttempts + (processed ? 1 : 0),
            deferrals: job.previousDeferrals + (processed ? 0 : 1), now: now()
        )
        let firstRefusal = tally.withLockedValue { tally in
            defer { tally.record(answer.token, apnsID: answer.apnsID, outcome: answer.outcome, verdict: verdict) }
            return tally.credentialRefusal == nil
        }
        if case .credentialRefused(let lastError) = verdict, firstRefusal {
            let until = now().addingTimeInterval(credentialBackoff.seconds)
            gate.pause(pending.credentialName, until: until)
            logger.error("APNs refused credential; pausing it", metadata: ["credential": "\(pending.credentialName)", "error": "\(lastError)", "until": "\(until)", "job": "\(job.id)"])
        }
    }
}
