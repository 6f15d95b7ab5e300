import NIOConcurrencyHelpers

/// A ``Throttle`` per retry tier: a burst of 503s sends thousands of jobs to one tier, and one line per
/// tier every ``interval`` says so with the count.
final class RetryLog: Sendable {
    static let interval: Duration = .seconds(10)
    private let throttles = NIOLockedValueBox<[String: Throttle]>([:])

    /// As ``Throttle/admit(now:)``, for `tier`.
    func admit(tier: String, now: ContinuousClock.Instant = .now) -> Int? {
        throttles.withLockedValue { throttles in
            if let throttle = throttles[tier] { return throttle }
            let throttle = Throttle(every: Self.interval)
            throttles[tier] = throttle
            return throttle
        }.admit(now: now)
    }
}
