public import APNsCore
public import Foundation

/// Decides, after each attempt, whether a job is done, retried (which tier, how long), or given up.
public struct RetryPolicy: Sendable {
    /// Delays of the retry tiers, shortest first (their queues hold a job that long).
    public let tiers: [Duration]
    /// Attempts per job, the first included.
    public let maxAttempts: Int
    /// Tries APNs never processed, per job: waiting for a stream, refused streams, no connection.
    /// They cost APNs nothing, so they do not use up attempts, but they are bounded all the same.
    public var maxDeferrals: Int { 4 * maxAttempts }

    public init(tiers: [Duration], maxAttempts: Int) {
        precondition(!tiers.isEmpty && maxAttempts >= 1, "validated by the configuration")
        self.tiers = tiers
        self.maxAttempts = maxAttempts
    }

    /// The verdict on attempt number `attempts` (1-based, over the job's whole life) of `job`.
    ///
    /// - Parameter jitter: a factor in 0.8...1.0 applied to the tier's delay, so jobs that failed together
    ///   do not all come back in the same second; random when `nil`, drawn only for a retry (a random
    ///   number is a `getrandom` system call, too dear for every delivered job).
    /// - Parameter deferrals: tries APNs did not process, including this one if it was such a try.
    public func verdict(
        for outcome: Result<APNsResponse, APNsSendError>,
        job: Job,
        attempts: Int,
        deferrals: Int = 0,
        now: Date,
        jitter: Double? = nil
    ) -> Verdict {
        verdict(for: outcome, deadline: job.deadline, attempts: attempts, deferrals: deferrals, now: now, jitter: jitter)
    }

    /// The verdict for any request with this `deadline` (a channel job's, say): the same rules.
    public func verdict(
        for outcome: Result<APNsResponse, APNsSendError>,
        deadline: Date?,
        attempts: Int,
        deferrals: Int = 0,
        now: Date,
        jitter: Double? = nil
    ) -> Verdict {
        let failure: TransientFailure
        switch outcome {
        case .success(.accepted(let acceptance)):
            return .delivered(acceptance)
        case .success(.rejected(let rejection)):
            switch rejection.disposition {
            case .permanent: return .rejected(rejection)
            case .credentialFailure: return .credentialRefused(lastError: "\(rejection.reason): \(rejection.status) \(rejection.reason)")
            case .retryLater, .recycleConnection, .retryAfterTokenRefresh: failure = TransientFailure(rejection)
            }
        case .failure(let error):
            switch error.disposition {
            case .credentialFailure: return .credentialRefused(lastError: "\(error.code.name): \(error)")
            case .permanent: return .failed(code: error.code.name, detail: error.message, rejection: nil)
            default: failure = TransientFailure(error)
            }
        }
        return retryOrGiveUp(failure, deadline: deadline, attempts: attempts, deferrals: deferrals, now: now, jitter: jitter)
    }

    private func retryOrGiveUp(_ failure: TransientFailure, deadline: Date?, attempts: Int, deferrals: Int, now: Date, jitter: Double?) -> Verdict {
        if let deadline, deadline <= now {
            return .expired(lastError: failure.description)
        }
        guard failure.processed ? attempts < maxAttempts : deferrals < maxDeferrals else {
            let tries = failure.processed ? "\(attempts) attempts" : "\(attempts) attempts and \(deferrals) tries APNs did not process"
            return .failed(code: failure.code, detail: "\(tries); last: \(failure.description)", rejection: failure.rejection)
        }
        let (tier, delay) = schedule(attempts: max(1, attempts + (failure.processed ? 0 : 1)), retryAfter: failure.retryAfter, jitter: jitter ?? Double.random(in: 0.8...1.0))
        if let deadline, now.addingTimeInterval(delay.seconds) > deadline {
            return .expired(lastError: failure.description)
        }
        return .retry(tier: tier, delay: delay, lastError: "\(failure.code): \(failure.description)")
    }

    /// The tier for the attempt that failed (one tier further per attempt, the last one repeating),
    /// moved up to the first tier at least as long as `Retry-After`.
    func schedule(attempts: Int, retryAfter: Duration?, jitter: Double) -> (tier: Int, delay: Duration) {
        var tier = min(max(attempts - 1, 0), tiers.count - 1)
        if let retryAfter {
            tier = tiers.indices.first { $0 >= tier && tiers[$0] >= retryAfter } ?? tiers.count - 1
        }
        let delay = tiers[tier] * min(max(jitter, 0.8), 1.0)
        return (tier, max(delay, min(retryAfter ?? .zero, tiers[tier])))
    }
}

extension Duration {
    /// Seconds as a floating-point number.
    package var seconds: TimeInterval {
        let (seconds, attoseconds) = components
        return TimeInterval(seconds) + TimeInterval(attoseconds) / 1e18
    }
}
