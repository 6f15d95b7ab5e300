import NIOConcurrencyHelpers
import Synchronization
import WorkerConfiguration

/// The rate limits of the credentials that have one (`rate_limit`, `topic_rate_limits`), each scaled
/// to this worker's share of the fleet: a fleet-wide 2,000/s over four workers is 500/s here.
///
/// A request waits for its credential's limit and its topic's before it is sent; the wait uses no
/// attempt (nothing was sent). It holds its job's slot (fair shares keep other credentials' jobs from
/// starving); a multicast job's sender lends its permit to other jobs meanwhile. An urgent request never waits: it
/// takes the next moment at once and pushes later requests back, so a campaign's reservations do not
/// delay a passcode, and over time the rate still holds.
final class RateLimits: Sendable {
    private struct Key: Hashable {
        let credential: String
        let topic: String?
    }

    private struct State {
        var limiters: [Key: RateLimiter] = [:]
        /// The configured fleet-wide rates.
        var rates: [Key: Int] = [:]
        /// The fleet's size in workers like this one (fractional when the workers' shards differ).
        var workers = 1.0
    }

    private let state = NIOLockedValueBox(State())
    /// Whether any credential has a limit (read without the lock on every send).
    private let limited = Atomic(false)
    var isEmpty: Bool { !limited.load(ordering: .relaxed) }

    init(credentials: [CredentialSettings]) {
        update(credentials: credentials)
    }

    /// The limits `credentials` configure, from now on (a reload): a limit that stays keeps its schedule.
    func update(credentials: [CredentialSettings]) {
        var rates: [Key: Int] = [:]
        for credential in credentials {
            if let rate = credential.rateLimit { rates[Key(credential: credential.name, topic: nil)] = rate }
            for (topic, rate) in credential.topicRateLimits { rates[Key(credential: credential.name, topic: topic)] = rate }
        }
        state.withLockedValue { state in
            state.rates = rates
            state.limiters = state.limiters.filter { rates[$0.key] != nil }
            for (key, rate) in rates {
                let perWorker = Double(rate) / state.workers
                if state.limiters[key] == nil { state.limiters[key] = RateLimiter(perSecond: perWorker) } else { state.limiters[key]!.setRate(perSecond: perWorker) }
            }
        }
        limited.store(!rates.isEmpty, ordering: .relaxed)
    }

    /// The fleet is `count` workers like this one now: each limit is its configured rate over `count`.
    /// Counted by consumers, it is the fleet's consumers over this worker's own (one per shard), so a
    /// worker of more shards takes a larger share.
    func setWorkers(_ count: Double) {
        state.withLockedValue { state in
            guard max(1, count) != state.workers else { return }
            state.workers = max(1, count)
            for (key, rate) in state.rates { state.limiters[key]?.setRate(perSecond: Double(rate) / state.workers) }
        }
    }

    /// This worker's rate for `credential` now (its credential-wide limit), if it has one.
    func perWorkerRate(of credential: String) -> Double? {
        state.withLockedValue { state in
            state.rates[Key(credential: credential, topic: nil)].map { Double($0) / state.workers }
        }
    }

    /// Reserves a request of `credential` to `topic` in its topic's schedule, if the topic has one: how
    /// long from `now` it waits. A request waits for its topic first, then reserves its credential's
    /// moment (``reserveCredential(_:urgent:now:)``) when that wait is over, so a topic held back by its
    /// own limit does not book the credential's room ahead of the credential's other topics.
    func reserveTopic(_ topic: String, of credential: String, urgent: Bool = false, now: ContinuousClock.Instant) -> Duration {
        reserve(Key(credential: credential, topic: topic), urgent: urgent, now: now)
    }

    /// Reserves a request of `credential` in its credential-wide schedule, if it has one.
    func reserveCredential(_ credential: String, urgent: Bool = false, now: ContinuousClock.Instant) -> Duration {
        reserve(Key(credential: credential, topic: nil), urgent: urgent, now: now)
    }

    /// `urgent`: the next moment is taken now (later requests move back), with no wait.
    private func reserve(_ key: Key, urgent: Bool, now: ContinuousClock.Instant) -> Duration {
        state.withLockedValue { state in
            guard state.limiters[key] != nil else { return .zero }
            if urgent {
                state.limiters[key]!.reserve(at: now)
                return .zero
            }
            return state.limiters[key]!.reserve(now: now)
        }
    }
}
