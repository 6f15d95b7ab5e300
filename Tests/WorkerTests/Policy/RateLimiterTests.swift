import Testing
import WorkerConfiguration
@testable import Worker

/// The rate schedule with time passed in: no clock, no sleeps.
@Suite("Rate limits")
struct RateLimiterTests {
    static let start = ContinuousClock.now

    /// The waits of `count` requests all made at `at`, in milliseconds.
    static func waits(_ limiter: inout RateLimiter, count: Int, at: ContinuousClock.Instant = start) -> [Int] {
        (0..<count).map { _ in Int(limiter.reserve(now: at) / .milliseconds(1)) }
    }

    @Test("at 10/s every request after the first waits 100 ms more than the one before")
    func spacing() {
        var limiter = RateLimiter(perSecond: 10)
        #expect(Self.waits(&limiter, count: 4) == [0, 100, 200, 300])
    }

    @Test("at 100/s a tenth of a second's worth goes at once, then one every 10 ms")
    func burst() {
        var limiter = RateLimiter(perSecond: 100)
        #expect(Self.waits(&limiter, count: 12) == [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 10, 20])
    }

    @Test("an idle limiter saves up no more than its burst")
    func idle() {
        var limiter = RateLimiter(perSecond: 100)
        _ = Self.waits(&limiter, count: 5)
        let later = Self.start + .seconds(60)
        #expect(Self.waits(&limiter, count: 12, at: later) == [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 10, 20])
    }

    @Test("over a long run the rate is the configured one")
    func longRun() {
        var limiter = RateLimiter(perSecond: 2000)
        var now = Self.start
        var sent = 0
        // Callers that send the moment they are allowed to: 30 s of them.
        while now < Self.start + .seconds(30) {
            now = now + limiter.reserve(now: now)
            sent += 1
        }
        #expect(abs(sent - 60_000) <= 200, "\(sent) in 30 s")
    }

    @Test("a fleet-wide limit is shared by the workers; a topic's limit binds when it is the lower")
    func fleetAndTopics() {
        var settings = CredentialSettings(name: "acme", kind: .pem(certificateFile: "c", keyFile: "k"))
        settings.rateLimit = 2000
        settings.topicRateLimits = ["com.acme.app.voip": 10]
        let limits = RateLimits(credentials: [settings, CredentialSettings(name: "free", kind: .pem(certificateFile: "c", keyFile: "k"))])
        #expect(!limits.isEmpty)
        #expect(limits.perWorkerRate(of: "acme") == 2000)
        limits.setWorkers(4)
        #expect(limits.perWorkerRate(of: "acme") == 500)
        #expect(limits.perWorkerRate(of: "free") == nil)
        #expect(limits.reserveCredential("free", now: Self.start) == .zero && limits.reserveTopic("x", of: "free", now: Self.start) == .zero, "no limit, no wait")
        let voip = (0..<3).map { _ in Int(limits.reserveTopic("com.acme.app.voip", of: "acme", now: Self.start) / .milliseconds(1)) }
        #expect(voip == [0, 400, 800], "10/s over 4 workers: one every 400 ms")
        #expect(limits.reserveCredential("acme", now: Self.start) == .zero, "a topic's waits book nothing of the credential's room")
        limits.update(credentials: [])
        #expect(limits.isEmpty && limits.reserveCredential("acme", now: Self.start) == .zero, "a reload that removes the limits")
    }

    @Test("an urgent request never waits; the moment it takes pushes the next request back")
    func urgentGoesAtOnce() {
        var settings = CredentialSettings(name: "acme", kind: .pem(certificateFile: "c", keyFile: "k"))
        settings.rateLimit = 10
        let limits = RateLimits(credentials: [settings])
        let bulk = (0..<3).map { _ in Int(limits.reserveCredential("acme", now: Self.start) / .milliseconds(1)) }
        #expect(bulk == [0, 100, 200])
        #expect(limits.reserveCredential("acme", urgent: true, now: Self.start) == .zero, "not behind the 300 ms booked")
        #expect(Int(limits.reserveCredential("acme", now: Self.start) / .milliseconds(1)) == 400, "the next bulk request waits one more interval")
    }
}
