public import Foundation
import Worker

/// Which dead letters an operator means: every condition given must hold, and within one condition any
/// of its values may match. No condition at all selects everything.
public struct DeadLetterFilter: Sendable {
    /// Reasons, compared without regard to case (`baddevicetoken` matches `BadDeviceToken`).
    public var reasons: Set<String> = []
    public var credentials: Set<String> = []
    public var topics: Set<String> = []
    public var jobIDs: Set<String> = []
    /// Dead-lettered at least this long ago.
    public var olderThan: Duration?
    /// Dead-lettered at most this long ago.
    public var newerThan: Duration?

    public init() {}

    public func selects(_ letter: DeadLetter, now: Date) -> Bool {
        if !reasons.isEmpty, !reasons.contains(where: { $0.caseInsensitiveCompare(letter.reason) == .orderedSame }) { return false }
        if !credentials.isEmpty, letter.credential.map(credentials.contains) != true { return false }
        if !topics.isEmpty, letter.topic.map(topics.contains) != true { return false }
        if !jobIDs.isEmpty, letter.jobID.map(jobIDs.contains) != true { return false }
        if olderThan != nil || newerThan != nil {
            // A letter whose age is unknown matches no age condition: replaying or purging by age must
            // never take what cannot be aged.
            guard let at = letter.deadLetteredAt else { return false }
            let age = now.timeIntervalSince(at)
            if let olderThan, age < olderThan.seconds { return false }
            if let newerThan, age > newerThan.seconds { return false }
        }
        return true
    }
}
