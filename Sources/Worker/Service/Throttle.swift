import NIOConcurrencyHelpers

/// Lets something through at most once per `interval`, counting what it held back: during a leader
/// election every job in flight is nacked at once, and one log line a second says as much as hundreds.
final class Throttle: Sendable {
    private let interval: Duration
    private let state = NIOLockedValueBox((last: ContinuousClock.Instant?.none, held: 0))

    init(every interval: Duration) {
        self.interval = interval
    }

    /// Nil when the message is held back; else how many were held back since the last one let through.
    func admit(now: ContinuousClock.Instant = .now) -> Int? {
        state.withLockedValue { state in
            if let last = state.last, now - last < interval {
                state.held += 1
                return nil
            }
            defer { state = (now, 0) }
            return state.held
        }
    }
}
