import AMQP
import APNsCore
import Foundation

/// What a multicast pass publishes.
extension PublicationPlanner {
    /// The result (or a result per token), the retry copy and the dead letter of one pass of
    /// `pending`'s job. The job is acked only once the broker confirmed all of them, like any job's
    /// publications.
    @inline(never)
    func multicast(_ pending: PendingSend, tally: MulticastTally) -> [Publication] {
        let (job, context) = (pending.job, pending.context)
        let attempts = job.previousAttempts + (tally.processedAny ? 1 : 0)
        let completed = now()
        var publications: [Publication] = []
        if job.multicast?.resultStyle == .perToken {
            for outcome in tally.outcomes {
                var result = context.result(status: outcome.status, attempts: attempts, completedAt: completed, job: job)
                result.credential = pending.credentialName
                result.deviceToken = outcome.deviceToken
                result.apnsID = outcome.apnsID
                result.httpStatus = outcome.httpStatus
                result.reason = outcome.reason
                result.detail = outcome.detail
                result.timestamp = outcome.timestamp
                publications.append(messages.result(result, replyTo: context.replyTo))
            }
        } else if let status = tally.status {
            var result = context.result(status: status, attempts: attempts, completedAt: completed, job: job)
            result.credential = pending.credentialName
            result.deviceToken = nil
            result.tokens = tally.counts
            result.failures = tally.outcomes
            publications.append(messages.result(result, replyTo: context.replyTo))
        }
        let original = context.delivery.message
        if !tally.dead.isEmpty {
            publications.append(messages.deadLetter(MulticastBody.message(original, holding: tally.dead), lane: context.lane, attempts: attempts, lastError: tally.deadError ?? "failed", at: completed, credential: pending.credentialName))
        }
        if !tally.retrying.isEmpty {
            let (tier, delay, lastError) = retrySchedule(tally, credential: pending.credentialName)
            // A copy per kind of try, as a single job would be counted: tokens APNs processed count an
            // attempt, tokens it never processed a deferral, tokens set aside neither.
            for copy in tally.retrying.copies(after: job.previousTries) {
                publications.append(messages.retry(MulticastBody.message(original, holding: copy.tokens), lane: context.lane, tier: tier, delay: delay, attempts: copy.tries.attempts, deferrals: copy.tries.deferrals, lastError: lastError, credential: pending.credentialName))
            }
        }
        return publications
    }

    /// Every token of `multicast` expired before it was sent (the job's deadline had passed when it arrived).
    @inline(never)
    func expired(_ pending: PendingSend, _ multicast: Multicast) -> [Publication] {
        var tally = MulticastTally(starting: multicast)
        for token in multicast.tokens {
            tally.expire(token, apnsID: APNsID.derived(fromJobID: pending.job.id, token: token), because: "deadline passed before sending")
        }
        return self.multicast(pending, tally: tally)
    }

    /// Where the retry copy goes: the longest wait any of its tokens needs (a transient failure's tier,
    /// the credential's pause), or the first tier for tokens only set aside (draining).
    private func retrySchedule(_ tally: MulticastTally, credential: String) -> (tier: Int, delay: Duration, lastError: String) {
        var schedule = tally.retry
        func consider(retryAfter: Duration?, _ reason: String) {
            let (tier, delay) = policy.schedule(attempts: 1, retryAfter: retryAfter, jitter: 1)
            if schedule.map({ delay > $0.delay }) ?? true { schedule = (tier, delay, reason) }
        }
        if let refusal = tally.credentialRefusal { consider(retryAfter: credentialBackoff, refusal) }
        switch tally.setAside {
        case .paused(let until): consider(retryAfter: .seconds(max(0, until.timeIntervalSince(now()))), Self.pausedReason(credential))
        case .draining: if schedule == nil { consider(retryAfter: nil, "Draining: not sent, the worker was draining") }
        case .deadline, nil: break
        }
        return schedule ?? {
            let (tier, delay) = policy.schedule(attempts: 1, retryAfter: nil, jitter: 1)
            return (tier, delay, "NotSent: not sent in this pass")
        }()
    }
}
