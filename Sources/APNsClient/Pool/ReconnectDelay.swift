/// When a pool may try its next connection: never sooner than the floor after the last attempt, and
/// after failures an exponentially growing delay with jitter, so a fleet does not reconnect in lockstep.
struct ReconnectDelay: Sendable {
    let floor: Duration
    let initial: Duration
    let maximum: Duration

    /// The delay between the last attempt and the next, after `failures` consecutive failed attempts.
    func delay(afterFailures failures: Int, jitter: Double = Double.random(in: 0.5...1.0)) -> Duration {
        guard failures > 0 else { return floor }
        let exponent = min(failures - 1, 30)
        let backoff = min(initial * (1 << exponent), maximum)
        return max(floor, backoff * jitter)
    }
}
