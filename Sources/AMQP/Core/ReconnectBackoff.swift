/// Exponential reconnect delays with jitter: attempt n waits between half and all of
/// `initial × 2ⁿ`, capped at `maximum`, so a fleet of workers does not reconnect in lockstep.
struct ReconnectBackoff {
    let initial: Duration
    let maximum: Duration
    private(set) var failedAttempts = 0

    init(initial: Duration, maximum: Duration) {
        self.initial = max(initial, .zero)
        self.maximum = max(maximum, self.initial)
    }

    /// The delay before the next attempt; each call counts one more failed attempt.
    mutating func nextDelay(using generator: inout some RandomNumberGenerator) -> Duration {
        let exponent = min(failedAttempts, 30)
        failedAttempts += 1
        let ceiling = min(initial * (1 << exponent), maximum)
        return ceiling / 2 + ceiling / 2 * Double.random(in: 0...1, using: &generator)
    }

    /// A connection succeeded: start again from `initial`.
    mutating func reset() {
        failedAttempts = 0
    }
}
