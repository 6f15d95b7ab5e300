import APNsCore

/// Why a job cannot be sent at all: it becomes a `failed` result with this code and a dead letter.
public struct JobError: Error, Hashable, Sendable, CustomStringConvertible {
    /// A stable code; results use it in their routing key (`result.failed.<code>`).
    public let code: String
    /// What exactly is wrong, safe to log (device tokens appear truncated).
    public let detail: String
    /// The job's id, when it could be read (it may break the id rules: then results carry it in their
    /// body but not as their `correlation_id`).
    public let jobID: String?

    public init(code: String, detail: String, jobID: String?) {
        self.code = code
        self.detail = detail
        self.jobID = jobID
    }

    public var description: String { "\(code): \(detail)" }

    /// The body is not a JSON object (by the strict reader: UTF-8, no repeated keys, at most 64 levels).
    public static let invalidJSON = "InvalidJSON"
    /// The body is larger than ``JobDecoder/maximumBodySize``.
    public static let jobTooLarge = "JobTooLarge"
    /// A required field is absent.
    public static let missingField = "MissingField"
    /// A field has the wrong type or an impossible value.
    public static let invalidField = "InvalidField"
    /// The job names a credential the worker does not have, or no credential serves its topic.
    public static let unknownCredential = "UnknownCredential"

    /// A request the APNs rules refuse, coded by the APNs reason it would have drawn.
    init(_ error: NotificationError, jobID: String?) {
        self.init(code: error.code.name, detail: error.detail, jobID: jobID)
    }

    /// Whatever building a job from its fields threw: a broken APNs rule keeps its reason, a job error
    /// stays itself, anything else is an invalid field.
    init(reading error: any Error, jobID: String) {
        switch error {
        case let error as NotificationError: self.init(error, jobID: jobID)
        case let error as JobError: self = error
        default: self.init(code: JobError.invalidField, detail: "\(error)", jobID: jobID)
        }
    }
}
