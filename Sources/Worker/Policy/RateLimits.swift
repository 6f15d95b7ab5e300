import NIOConcurrencyHelpers
import Synchronization
import WorkerConfiguration

/// The rate limits of the credentials that have one (`rate_limit`, `topic_rate_limits`), each scaled
/// to this worker's share of the fleet: a fleet-wide 2,000/s over four workers is 500/s here.
///
/// A request waits for its credential's limit and its topic's before it is sent; the wait uses no
/// attempt (nothing was sent) and holds only its own job's slot, which fair shares keep from starving
/// other credentials.
final class RateLimits: Sendable {
    private struct Key: Hashable {
        let credential: String
        let topic: String?
    }

    private struct State {
        var limiters: [Key: RateLimiter] = [:]
        /// The configured fleet-wide rates.
        var rates: [Key: Int] = [:]
        var workers = 1
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
                let perWorker = Double(rate) / Double(state.workers)
                if state.limiters[key] == nil { state.limiters[key] = RateLimiter(perSecond: perWorker) } else { state.limiters[key]!.setRate(perSecond: perWorker) }
            }
        }
        limited.store(!rates.isEmpty, ordering: .relaxed)
    }

    /// The fleet has `count` workers now: each limit is its configured rate over `count`.
    func setWorkers(_ count: Int) {
        state.withLockedValue { state in
            guard max(1, count) != state.workers else { return }
            state.workers = max(1, count)
            for (key, rate) in state.rates { state.limiters[key]?.setRate(perSecond: Double(rate) / Double(state.workers)) }
        }
    }

    /// This worker's rate for `credential` now (its credential-wide limit), if it has one.
    func perWorkerRate(of credential: String) -> Double? {
        state.withLockedValue { state in
            state.rates[Key(credential: credential, topic: nil)].map { Double($0) / Double(state.workers) }
        }
    }

    /// Reserves a request of `credential` to `topic`: how long from `now` it waits (the longer of its
    /// credential's and its topic's schedules).
    func reserve(credential: String, topic: String, now: ContinuousClock.Instant) -> Duration {
        state.withLockedValue { state in
            var wait = Duration.zero
            for key in [Key(credential: credential, topic: nil), Key(credential: credential, topic: topic)] where state.limiters[key] != nil {
                wait = max(wait, state.limiters[key]!.reserve(now: now))
            }
            return wait
        }
    }
}
