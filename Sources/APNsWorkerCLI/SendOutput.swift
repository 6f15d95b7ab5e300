import APNsClient
import APNsCore
import JSON
import Worker

/// The JSON `send` prints: one object, keys sorted, the device token truncated. Its `status` and
/// `reason` use the words a job's result uses (`delivered`, `rejected`, `failed`), so a script that
/// reads both reads one vocabulary.
enum SendOutput {
    static func response(_ response: APNsResponse, request: NotificationRequest) -> String {
        var object: [String: JSONValue] = ["device_token": .string(request.deviceToken.redacted), "topic": .string(request.topic)]
        switch response {
        case .accepted(let acceptance):
            object["status"] = .string(JobStatus.delivered.rawValue)
            object["http_status"] = 200
            object["apns_id"] = JSONValue(acceptance.apnsID)
            object["apns_unique_id"] = JSONValue(acceptance.uniqueID)
        case .rejected(let rejection):
            object["status"] = .string(JobStatus.rejected.rawValue)
            object["http_status"] = JSONValue(rejection.status)
            object["reason"] = .string(rejection.reason.name)
            object["apns_id"] = JSONValue(rejection.apnsID)
            object["timestamp"] = JSONValue(rejection.timestampMilliseconds)
            object["disposition"] = .string("\(rejection.disposition)")
        }
        return encode(object)
    }

    static func failure(_ error: APNsSendError) -> String {
        encode([
            "status": .string(JobStatus.failed.rawValue), "reason": .string(error.code.name),
            "outcome": error.outcome == .notProcessed ? "not-processed" : "unknown", "detail": .string(error.message),
        ])
    }

    /// Input refused before anything was sent (exit 64): `reason` is the code a job with the same
    /// fault fails with where there is one (`InvalidJSON`, `BadDeviceToken`…), else `InvalidArgument`.
    static func invalid(_ error: any Error) -> String {
        let reason = switch error {
        case let error as SendInputError: error.reason
        case let error as NotificationError: error.code.name
        default: "InvalidArgument"
        }
        return encode(["status": .string(JobStatus.failed.rawValue), "reason": .string(reason), "detail": .string("\(error)")])
    }

    /// One JSON object on one line, keys sorted (`channels` prints the same way).
    static func encode(_ object: [String: JSONValue]) -> String {
        String(decoding: JSONValue.object(object).encoded(), as: UTF8.self)
    }
}
