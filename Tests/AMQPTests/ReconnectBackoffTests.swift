import APNsCore
import Testing
import TestSupport
@testable import AMQP

@Suite("Reconnect backoff (no I/O)")
struct ReconnectBackoffTests {
    @Test("delays double from the initial one, stay within [half, full] of it, and are capped")
    func exponentialWithJitter() {
        var backoff = ReconnectBackoff(initial: .milliseconds(100), maximum: .seconds(1))
        var generator = SeededGenerator(seed: 42)
        let ceilings: [Duration] = [.milliseconds(100), .milliseconds(200), .milliseconds(400), .milliseconds(800), .seconds(1), .seconds(1), .seconds(1)]
        for ceiling in ceilings {
            let delay = backoff.nextDelay(using: &generator)
            #expect(delay >= ceiling / 2 && delay <= ceiling, "\(delay) not within [\(ceiling / 2), \(ceiling)]")
        }
    }

    @Test("jitter spreads delays, and reset starts over")
    func jitterAndReset() {
        var generator = SeededGenerator(seed: 7)
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
        var generator = SeededGenerator(seed: 1)
        for _ in 0..<200 { #expect(backoff.nextDelay(using: &generator) <= .seconds(30)) }
    }
}
