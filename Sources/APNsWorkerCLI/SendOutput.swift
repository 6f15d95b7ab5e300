import APNsClient
import APNsCore
import Foundation
import Worker

/// The JSON `send` prints: one object, keys sorted, the device token truncated. Its `status` and
/// `reason` use the words a job's result uses (`delivered`, `rejected`, `failed`), so a script that
/// reads both reads one vocabulary.
enum SendOutput {
    static func response(_ response: APNsResponse, request: NotificationRequest) -> String {
        var object: [String: Any] = ["device_token": request.deviceToken.redacted, "topic": request.topic]
        switch response {
        case .accepted(let acceptance):
            object["status"] = JobStatus.delivered.rawValue
            object["http_status"] = 200
            object["apns_id"] = acceptance.apnsID
            object["apns_unique_id"] = acceptance.uniqueID
        case .rejected(let rejection):
            object["status"] = JobStatus.rejected.rawValue
            object["http_status"] = rejection.status
            object["reason"] = rejection.reason.name
            object["apns_id"] = rejection.apnsID
            object["timestamp"] = rejection.timestampMilliseconds
            object["disposition"] = "\(rejection.disposition)"
        }
        return encode(object)
    }

    static func failure(_ error: APNsSendError) -> String {
        encode([
            "status": JobStatus.failed.rawValue, "reason": error.code.name,
            "outcome": error.outcome == .notProcessed ? "not-processed" : "unknown", "detail": error.message,
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
        return encode(["status": JobStatus.failed.rawValue, "reason": reason, "detail": "\(error)"])
    }

    /// One JSON object on one line, keys sorted (`channels` prints the same way).
    static func encode(_ object: [String: Any]) -> String {
        guard let data = try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes]) else { return "{}" }
        return String(decoding: data, as: UTF8.self)
    }
}
