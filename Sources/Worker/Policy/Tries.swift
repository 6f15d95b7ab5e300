/// How often a job was tried: attempts APNs may have acted on, and tries it never processed (no stream
/// in time, a refused stream, no connection). The two are counted apart because only attempts cost
/// APNs anything; the policy bounds each (``RetryPolicy/maxAttempts``, ``RetryPolicy/maxDeferrals``).
public struct Tries: Sendable, Equatable {
    public var attempts: Int
    public var deferrals: Int

    public init(attempts: Int, deferrals: Int = 0) {
        self.attempts = attempts
        self.deferrals = deferrals
    }

    /// The counts after one more try: an attempt if APNs may have processed it, else a deferral.
    ///
    /// Every kind of job counts its tries here, so a single job, each token of a multicast job and a
    /// channel request are charged by one rule.
    public func after(processed: Bool) -> Tries {
        processed ? Tries(attempts: attempts + 1, deferrals: deferrals) : Tries(attempts: attempts, deferrals: deferrals + 1)
    }
}

extension Job {
    /// The tries made before this delivery (from a retried copy's headers).
    public var previousTries: Tries { Tries(attempts: previousAttempts, deferrals: previousDeferrals) }
}

extension ChannelJob {
    /// The tries made before this delivery (from a retried copy's headers).
    public var previousTries: Tries { Tries(attempts: previousAttempts, deferrals: previousDeferrals) }
}
