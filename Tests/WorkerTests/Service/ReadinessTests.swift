import Testing
import Worker

@Suite("Readiness: what /health/ready answers (no I/O)")
struct ReadinessTests {
    @Test("ready exactly when connected, consuming and not draining; a paused credential is reported, not unready", arguments: [
        (true, true, false, [String](), true),
        (true, true, false, ["team-a"], true),
        (false, true, false, [], false),
        (true, false, false, [], false),
        (true, true, true, [], false),
        (false, false, true, ["team-a", "team-b"], false),
    ])
    func table(connected: Bool, consuming: Bool, draining: Bool, paused: [String], ready: Bool) {
        let readiness = Readiness(connected: connected, consuming: consuming, draining: draining, pausedCredentials: paused)
        #expect(readiness.ready == ready)
    }
}
