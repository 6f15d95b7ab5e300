/// At most `rate` requests a second, with bursts of up to a tenth of a second's worth (at least one):
/// the generic cell rate algorithm, as a schedule rather than a refusal. Each caller reserves the next
/// free moment and waits until it; no caller is refused, and a caller never waits longer than the
/// requests reserved before it take. Time comes in as `now`, so tests drive it.
struct RateLimiter: Sendable {
    /// Seconds between requests at the rate; 0 means no limit.
    private(set) var interval: Double
    /// How far ahead of the schedule a burst may run.
    private(set) var tolerance: Double
    /// When the next request would be due at exactly the rate (the "theoretical arrival time").
    private var due: ContinuousClock.Instant?

    init(perSecond rate: Double) {
        interval = 0
        tolerance = 0
        setRate(perSecond: rate)
    }

    /// Requests a second from now on; the schedule already reserved stays.
    mutating func setRate(perSecond rate: Double) {
        interval = rate > 0 ? 1 / rate : 0
        tolerance = max(0, (max(1, rate / 10).rounded(.down) - 1)) * interval
    }

    /// Reserves the next request's moment: how long from `now` the caller waits before sending.
    mutating func reserve(now: ContinuousClock.Instant) -> Duration {
        let sendAt = earliest(now: now)
        reserve(at: sendAt)
        return sendAt - now
    }

    /// The earliest moment from `now` a request may go, without reserving it.
    func earliest(now: ContinuousClock.Instant) -> ContinuousClock.Instant {
        guard interval > 0, let due else { return now }
        return max(now, due - .seconds(tolerance))
    }

    /// Takes the moment `time` (at or after ``earliest(now:)``): the schedule moves on one interval
    /// from it. A moment taken early (an urgent request, which never waits) pushes later ones back.
    mutating func reserve(at time: ContinuousClock.Instant) {
        guard interval > 0 else { return }
        due = max(due ?? time, time) + .seconds(interval)
    }
}
