import APNsCore
import Worker

/// The codes a dead letter's reason can be, so a `--reason` an operator types can be told apart from
/// one no letter will ever have (`HTTP503` where the worker writes `ServiceUnavailable`).
public enum DeadLetterReason {
    /// Reasons the broker gives in `x-death` for messages it dead-letters itself.
    public static let brokerReasons = ["delivery_limit", "rejected", "expired", "maxlen"]

    /// Every code the worker writes before the colon of `last-error` on a dead letter: APNs' reasons,
    /// the client's failure codes, the codes of jobs that cannot be sent, and `expired`.
    public static let workerReasons: Set<String> = {
        var codes = Set(APNsReason.knownNames)
        codes.formUnion(APNsSendError.Code.all.map(\.name))
        codes.formUnion(NotificationError.Code.all.map(\.name))
        codes.formUnion([JobError.invalidJSON, JobError.jobTooLarge, JobError.missingField, JobError.invalidField, JobError.unknownCredential])
        codes.insert(Verdict.expiredCode)
        return codes
    }()

    /// Whether a letter can have `reason` (case does not matter, as in ``DeadLetterFilter``). An APNs
    /// answer with no reason is coded by its status, `HTTP500`; a reason APNs adds later is not known
    /// here, so callers warn rather than refuse.
    public static func isKnown(_ reason: String) -> Bool {
        let lowered = reason.lowercased()
        if workerReasons.contains(where: { $0.lowercased() == lowered }) || brokerReasons.contains(lowered) { return true }
        return lowered.hasPrefix("http") && lowered.count == 7 && lowered.dropFirst(4).allSatisfy(\.isNumber)
    }

    /// For a status code such as `HTTP503`: the reasons APNs documents with that status, which are what
    /// letters of such answers usually read (`ServiceUnavailable`, `Shutdown`): `HTTP503` itself is
    /// written only when APNs gave no reason. Empty for anything else.
    public static func reasonsUsuallyWritten(insteadOf reason: String) -> [String] {
        let lowered = reason.lowercased()
        guard lowered.hasPrefix("http"), let status = Int(lowered.dropFirst(4)) else { return [] }
        return APNsReason.knownNames.filter { APNsReason(name: $0).documentedStatus == status }
    }
}
