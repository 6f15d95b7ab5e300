import APNsCore

/// A failed check inside ``RequestValidator``, thrown (typed, so without boxing) to end validation early.
struct ValidationRejection: Error {
    let verdict: MockVerdict

    /// A rejection with the HTTP status APNs documents for `reason` (400 for a reason it documents none for).
    init(_ reason: APNsReason, timestampMilliseconds: Int64? = nil) {
        verdict = .reject(status: reason.documentedStatus ?? 400, reason: reason, timestampMilliseconds: timestampMilliseconds)
    }
}
