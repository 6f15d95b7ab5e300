import Foundation

/// A worker bug a scenario exposes, and the violations (by words they contain) it causes.
struct KnownIssue: Sendable {
    let comment: String
    let violations: [String]

    func covers(_ violation: String) -> Bool {
        violations.contains { violation.contains($0) }
    }

    /// A job that waits for a free stream longer than the request timeout fails "not processed" (APNs
    /// never saw it), yet the retry policy counts it as an attempt, and the result's `attempts` with it.
    static let streamWaitUsesAttempts = KnownIssue(
        comment: "Waiting for a free stream past request_timeout (not processed: APNs never saw the push) uses up one of max_attempts and counts in the result's attempts",
        violations: ["APNs requests but"]
    )
}
