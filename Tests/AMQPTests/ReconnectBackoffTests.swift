import Testing
@testable import AMQP

/// A deterministic generator (SplitMix64) so jitter is reproducible.
struct SeededGenerator: RandomNumberGenerator {
    var state: UInt64
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

@Suite("Reconnect backoff (no I/O)")
struct ReconnectBackoffTests {
    @Test("delays double from the initial one, stay within [half, full] of it, and are capped")
    func exponentialWithJitter() {
        var backoff = ReconnectBackoff(initial: .milliseconds(100), maximum: .seconds(1))
        var generator = SeededGenerator(state: 42)
        let ceilings: [Duration] = [.milliseconds(100), .milliseconds(200), .milliseconds(400), .milliseconds(800), .seconds(1), .seconds(1), .seconds(1)]
        for ceiling in ceilings {
            let delay = backoff.nextDelay(using: &generator)
            #expect(delay >= ceiling / 2 && delay <= ceiling, "\(delay) not within [\(ceiling / 2), \(ceiling)]")
        }
    }

    @Test("jitter spreads delays, and reset starts over")
    func jitterAndReset() {
        var generator = SeededGenerator(state: 7)
        let delays = (0..<20).map { _ -> Duration in
            var backoff = ReconnectBackoff(initial: .seconds(1), maximum: .seconds(30))
            return backoff.nextDelay(using: &generator)
        }
        #expect(Set(delays).count > 10)
        var backoff = ReconnectBackoff(initial: .seconds(1), maximum: .seconds(30))
        for _ in 0..<5 { _ = backoff.nextDelay(using: &generator) }
        backoff.reset()
        #expect(backoff.nextDelay(using: &generator) <= .seconds(1))
    }

    @Test("many failures do not overflow")
    func noOverflow() {
        var backoff = ReconnectBackoff(initial: .milliseconds(200), maximum: .seconds(30))
        var generator = SeededGenerator(state: 1)
        for _ in 0..<200 { #expect(backoff.nextDelay(using: &generator) <= .seconds(30)) }
    }
}
