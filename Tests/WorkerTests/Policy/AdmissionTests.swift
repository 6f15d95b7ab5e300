import Foundation
import Testing
import Worker

@Suite("Admission: whether a job goes to APNs now (no I/O)")
struct AdmissionTests {
    static let now = Date(timeIntervalSince1970: 1_800_000_000)
    static let later = now.addingTimeInterval(60)
    static let earlier = now.addingTimeInterval(-1)

    @Test("deadline first, then the credential's pause", arguments: [
        (nil, nil, Admission.send),
        (later, nil, .send),
        (now, nil, .expire),
        (earlier, nil, .expire),
        (nil, later, .wait(until: later)),
        (later, later, .wait(until: later)),
        (earlier, later, .expire),
    ] as [(Date?, Date?, Admission)])
    func table(deadline: Date?, pausedUntil: Date?, admission: Admission) {
        #expect(Admission.decide(deadline: deadline, pausedUntil: pausedUntil, now: Self.now) == admission)
    }
}
