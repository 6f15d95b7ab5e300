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
    /// The tokens are sent by senders (``startSender(_:of:)``), each holding one of the worker-wide
    /// ``permits`` and sending the job's next token, one after another, until none is left. This loop
    /// starts a sender each time it gets a permit, up to ``multicastSenders``, so all multicast jobs
    /// together keep no more requests in flight than there are permits, and jobs waiting for permits
    /// take turns. Tokens not sent because the credential got paused or the worker is draining go to
    /// the retry copy without counting an attempt; after the job's deadline, they expire.
    func sendMulticast(_ pending: PendingSend, _ multicast: Multicast) async -> [Publication] {
        let senders = min(multicast.tokens.count, multicastSenders)
        let run = MulticastRun(pending: pending, tokens: multicast.tokens, tally: MulticastTally(starting: multicast), senders: senders)
        await withTaskCancellationHandler {
            for sender in 0..<senders {
                // Withdrawn (false) once the senders took every token: the job finishes without waiting its turn.
                guard await permits.acquire(for: ObjectIdentifier(run), urgent: run.pending.context.isUrgent, while: { run.hasTokensLeft }) else { break }
                startSender(sender, of: run)
            }
            run.senderEnded()
            await run.ended.wait()
        } onCancel: {
            run.cancel()
        }
        return planner.multicast(pending, tally: run.tally.withLockedValue { $0 })
    }

    /// Why sending must stop before the token at `index`, if it must. Draining and cancellation are
    /// atomic reads, so they are looked at for every token; the gate (a lock) and the clock every 32 tokens.
    func stopReason(_ run: MulticastRun, at index: Int) -> MulticastTally.SetAside? {
        if draining.load(ordering: .relaxed) || run.cancelled.load(ordering: .relaxed) { return .draining }
        guard index % 32 == 0 else { return nil }
        let now = now()
        switch Admission.decide(deadline: run.pending.job.deadline, pausedUntil: gate.pausedUntil(run.pending.credentialName, at: now), now: now) {
        case .send: return nil
        case .expire: return .deadline
        case .wait(let until): return .paused(until: until)
        }
    }

    /// A token not sent: it expires if the job's deadline passed, else waits for the retry copy.
    func setAside(_ token: DeviceToken, of run: MulticastRun) {
        run.tally.withLockedValue { tally in
            if case .deadline = tally.setAside {
                tally.expire(token, apnsID: APNsID.derived(fromJobID: run.jobID, token: token), because: "deadline passed before sending")
            } else {
                tally.postpone(token)
            }
        }
    }

    /// Token `token`'s request: the job's, addressed to it under the apns-id derived from the job and the token.
    func request(for token: DeviceToken, of run: MulticastRun) -> (apnsID: APNsID, request: NotificationRequest) {
        let apnsID = APNsID.derived(fromJobID: run.jobID, token: token)
        return (apnsID, run.template.addressed(to: token, apnsID: apnsID))
    }

    /// Sends token `token`'s request once the credential's and the topic's rate limits let it go. A bulk
    /// sender lends its permit while it waits (``waitForRate(_:topic:urgent:holdingPermit:)``).
    func sendAfterRateWait(_ token: DeviceToken, of run: MulticastRun) async -> TokenAnswer {
        let (apnsID, request) = request(for: token, of: run)
        let urgent = run.pending.context.isUrgent
        guard await waitForRate(run.pending.credentialName, topic: request.topic, urgent: urgent, holdingPermit: !urgent) else {
            return TokenAnswer(token: token, apnsID: apnsID, outcome: .failure(Self.rateWaitCancelled))
        }
        let outcome = await Result(sending: { try await sender.send(request, credential: run.pending.credential, endpoint: run.pending.endpoint, urgent: urgent) })
        return TokenAnswer(token: token, apnsID: apnsID, outcome: outcome)
    }

    /// The verdict on one token's answer, exactly as a single job's (same attempts, same policy).
    @inline(never)
    func record(_ answer: TokenAnswer, of run: MulticastRun) {
        let (pending, tally) = (run.pending, run.tally)
        metrics.multicastRequests.increment()
        let job = pending.job
        let tries = job.previousTries.after(processed: answer.outcome.processedByAPNs)
        let verdict = planner.policy.verdict(for: answer.outcome, job: job, attempts: tries.attempts, deferrals: tries.deferrals, now: now())
        let firstRefusal = tally.withLockedValue { tally in
            defer { tally.record(answer.token, apnsID: answer.apnsID, outcome: answer.outcome, verdict: verdict) }
            return tally.credentialRefusal == nil
        }
        if case .credentialRefused(let lastError) = verdict, firstRefusal {
            run.stopped.store(true, ordering: .relaxed)
            pauseRefused(pending.credentialName, lastError: lastError, jobID: job.id)
        }
    }
}
