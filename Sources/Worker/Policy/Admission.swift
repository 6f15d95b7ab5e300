public import Foundation

/// Whether a job whose credential is known goes to APNs now: the one gate a notification, each batch
/// of a multicast job's tokens and a channel request pass, so they expire and wait by the same rules.
public enum Admission: Equatable, Sendable {
    case send
    /// The job's deadline passed before it was sent: it ends `expired`, never sent.
    case expire
    /// The credential is paused (APNs refused it) until then: the job waits in a retry tier without
    /// using an attempt.
    case wait(until: Date)

    /// The deadline is looked at first: an expired job is answered now, even while its credential
    /// is paused, rather than waiting only to expire later.
    public static func decide(deadline: Date?, pausedUntil: Date?, now: Date) -> Admission {
        if let deadline, deadline <= now { return .expire }
        if let pausedUntil { return .wait(until: pausedUntil) }
        return .send
    }
}
