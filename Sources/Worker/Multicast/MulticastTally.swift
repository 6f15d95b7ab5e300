import APNsCore
import Foundation

/// What a multicast job's tokens came to in one pass, gathered as APNs answers them: counts, the
/// tokens to report, and the tokens that go on to a retry tier or to the dead letters.
///
/// Only the job's fan-out loop touches it, one answer at a time. Delivered tokens are only counted
/// (unless results are per token), so a 10,000-token job holds entries only for what went wrong.
struct MulticastTally {
    /// Whether delivered tokens get an entry too (results per token).
    let keepsDelivered: Bool
    private(set) var counts = TokenCounts()
    /// Tokens this pass answers, in the order APNs answered them: all but the delivered ones, unless
    /// ``keepsDelivered``.
    private(set) var outcomes: [TokenOutcome] = []
    /// Tokens for the retry tier, grouped by what this pass tried on them.
    private(set) var retrying = RetryGroups()
    /// Tokens whose retries ran out or whose deadline passed: they go to the dead letters.
    private(set) var dead: [DeviceToken] = []
    /// The first dead token's failure, for the dead letter's `last-error`.
    private(set) var deadError: String?
    /// The longest retry any token asked for, and why.
    private(set) var retry: (tier: Int, delay: Duration, lastError: String)?
    /// Set when APNs refused the credential: the job's credential is then paused.
    private(set) var credentialRefusal: String?
    /// Whether APNs may have acted on any request of this pass (then the pass is an attempt).
    private(set) var processedAny = false
    /// Why the pass stopped sending before its last token, if it did.
    var setAside: SetAside?

    /// Why a pass stops sending: the rest of its tokens wait for a later pass, or expire.
    enum SetAside {
        case draining
        /// The credential is paused (by this job's refusal or another's) until then.
        case paused(until: Date)
        /// The job's deadline passed mid-pass: the rest expire.
        case deadline
    }

    init(keepsDelivered: Bool, repeated: Int) {
        self.keepsDelivered = keepsDelivered
        counts.repeated = repeated
    }

    /// The tally a pass of `multicast` starts from: its repeated tokens counted, its invalid ones rejected.
    init(starting multicast: Multicast) {
        self.init(keepsDelivered: multicast.resultStyle == .perToken, repeated: multicast.repeatedTokens)
        for invalid in multicast.invalidTokens { reject(invalid) }
    }

    /// Records one token's answer and the verdict on it.
    mutating func record(_ token: DeviceToken, apnsID: APNsID, outcome: Result<APNsResponse, APNsSendError>, verdict: Verdict) {
        let processed = outcome.processedByAPNs
        processedAny = processedAny || processed
        // Counted before an entry is built: most tokens are delivered, and most jobs keep no entry for them.
        if case .delivered = verdict {
            counts.delivered += 1
            guard keepsDelivered else { return }
        }
        var entry = TokenOutcome(deviceToken: token.hexString, status: .failed)
        entry.apnsID = apnsID.value
        switch verdict {
        case .delivered:
            entry.status = .delivered
            entry.httpStatus = 200
        case .rejected(let rejection):
            entry.status = .rejected
            entry.apply(rejection)
        case .failed(let code, let detail, let rejection):
            if let rejection { entry.apply(rejection) }
            entry.reason = code
            entry.detail = detail
            markDead(token, because: verdict.lastError ?? code)
        case .expired(let lastError):
            entry.status = .expired
            entry.detail = lastError
            markDead(token, because: verdict.lastError ?? lastError)
        case .retry(let tier, let delay, let lastError):
            if processed { retrying.attempted.append(token) } else { retrying.deferred.append(token) }
            counts.retrying += 1
            if retry.map({ $0.tier < tier || ($0.tier == tier && $0.delay < delay) }) ?? true { retry = (tier, delay, lastError) }
            return
        case .credentialRefused(let lastError):
            credentialRefusal = credentialRefusal ?? lastError
            postpone(token)
            return
        }
        counts.count(entry.status)
        outcomes.append(entry)
    }

    /// A token not sent in this pass (its credential is paused, or the worker is draining): retried
    /// later without counting an attempt.
    mutating func postpone(_ token: DeviceToken) {
        retrying.setAside.append(token)
        counts.retrying += 1
    }

    /// A listed entry that is no device token: rejected as APNs would reject it, never sent.
    mutating func reject(_ invalid: Multicast.InvalidToken) {
        var entry = TokenOutcome(deviceToken: invalid.text, status: .rejected)
        entry.httpStatus = APNsReason.badDeviceToken.documentedStatus
        entry.reason = APNsReason.badDeviceToken.name
        entry.detail = invalid.detail
        counts.count(.rejected)
        outcomes.append(entry)
    }

    /// A token whose job's deadline passed before it was sent.
    mutating func expire(_ token: DeviceToken, apnsID: APNsID, because lastError: String) {
        var entry = TokenOutcome(deviceToken: token.hexString, status: .expired)
        entry.apnsID = apnsID.value
        entry.detail = lastError
        markDead(token, because: Verdict.expired(lastError: lastError).lastError ?? lastError)
        counts.count(.expired)
        outcomes.append(entry)
    }

    /// The status of the whole pass: the one status every answered token shares, else `partial`.
    var status: JobStatus? {
        let answered: [(JobStatus, Int)] = [(.delivered, counts.delivered), (.rejected, counts.rejected), (.failed, counts.failed), (.expired, counts.expired)]
        let present = answered.filter { $0.1 > 0 }
        guard !present.isEmpty else { return nil }
        return present.count == 1 ? present[0].0 : .partial
    }

    private mutating func markDead(_ token: DeviceToken, because error: String) {
        dead.append(token)
        deadError = deadError ?? error
    }
}

/// The tokens of a pass that go on to a retry tier, by what the pass tried on each. Each group that
/// holds any goes in its own copy, so a token is charged only for its own try: a copy that carried
/// the pass's count to every retrying token charged a token APNs never processed with another token's
/// attempt, and in a 503 storm such tokens ran out of attempts they never made.
struct RetryGroups {
    /// Tried, and APNs may have processed the try (a 503, say): charged an attempt.
    var attempted: [DeviceToken] = []
    /// Tried, and APNs never processed it (no stream in time, a refused stream): charged a deferral.
    var deferred: [DeviceToken] = []
    /// Never tried in this pass (the credential was refused or paused, the worker was draining):
    /// charged nothing.
    var setAside: [DeviceToken] = []

    var isEmpty: Bool { attempted.isEmpty && deferred.isEmpty && setAside.isEmpty }

    /// A copy per group that holds tokens, with the tries its tokens made, from the job's `previous`.
    func copies(after previous: Tries) -> [(tokens: [DeviceToken], tries: Tries)] {
        [
            (attempted, previous.after(processed: true)),
            (deferred, previous.after(processed: false)),
            (setAside, previous),
        ].filter { !$0.0.isEmpty }
    }
}

extension TokenOutcome {
    mutating func apply(_ rejection: APNsRejection) {
        httpStatus = rejection.status
        reason = rejection.reason.name
        timestamp = rejection.timestampMilliseconds
    }
}
