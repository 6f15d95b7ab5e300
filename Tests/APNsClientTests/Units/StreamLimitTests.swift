import Testing
@testable import APNsClient

@Suite("Stream limit (no I/O)")
struct StreamLimitTests {
    @Test("token connections get one stream until a push is accepted, then the server's limit")
    func tokenRamp() {
        var limit = StreamLimit(usesTokens: true, cap: nil)
        #expect(limit.effective == 1)
        do { let changed = limit.serverAdvertised(1000); #expect(!changed) }
        #expect(limit.effective == 1)
        do { let changed = limit.pushAccepted(); #expect(changed) }
        #expect(limit.effective == 1000)
        do { let changed = limit.pushAccepted(); #expect(!changed) }
    }

    @Test("certificate connections use the server's limit at once; a local cap bounds it")
    func certificateAndCap() {
        var limit = StreamLimit(usesTokens: false, cap: 300)
        do { let changed = limit.serverAdvertised(1000); #expect(changed) }
        #expect(limit.effective == 300)
        do { let changed = limit.serverAdvertised(10); #expect(changed) }
        #expect(limit.effective == 10)
    }

    @Test("a server lowering its limit lowers the connection's, even after the ramp")
    func lowered() {
        var limit = StreamLimit(usesTokens: true, cap: nil)
        _ = limit.serverAdvertised(1000)
        _ = limit.pushAccepted()
        do { let changed = limit.serverAdvertised(1); #expect(changed) }
        #expect(limit.effective == 1)
        do { let changed = limit.serverAdvertised(0); #expect(changed) }
        #expect(limit.effective == 0)
    }
}

@Suite("Reconnect delay (no I/O)")
struct ReconnectDelayTests {
    let delay = ReconnectDelay(floor: .seconds(1), initial: .seconds(2), maximum: .seconds(60))

    @Test("no failures: the floor")
    func floor() {
        #expect(delay.delay(afterFailures: 0, jitter: 0.5) == .seconds(1))
    }

    @Test("failures double the delay, with jitter, up to the maximum, never below the floor")
    func backoff() {
        #expect(delay.delay(afterFailures: 1, jitter: 1) == .seconds(2))
        #expect(delay.delay(afterFailures: 3, jitter: 1) == .seconds(8))
        #expect(delay.delay(afterFailures: 3, jitter: 0.5) == .seconds(4))
        #expect(delay.delay(afterFailures: 40, jitter: 1) == .seconds(60))
        #expect(delay.delay(afterFailures: 1, jitter: 0.25) == .seconds(1))
        let jittered = (0..<50).map { _ in delay.delay(afterFailures: 4) }
        #expect(jittered.allSatisfy { $0 >= .seconds(8) && $0 <= .seconds(16) })
        #expect(Set(jittered).count > 1)
    }
}
