import APNsClient
import APNsCore
import Foundation

/// The JSON `send` prints: one object, keys sorted, the device token truncated.
enum SendOutput {
    static func response(_ response: APNsResponse, request: NotificationRequest) -> String {
        var object: [String: Any] = ["device_token": request.deviceToken.redacted, "topic": request.topic]
        switch response {
        case .accepted(let acceptance):
            object["status"] = "accepted"
            object["http_status"] = 200
            object["apns_id"] = acceptance.apnsID
            object["apns_unique_id"] = acceptance.uniqueID
        case .rejected(let rejection):
            object["status"] = "rejected"
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
            "status": "failed", "code": error.code.name,
            "outcome": error.outcome == .notProcessed ? "not-processed" : "unknown", "detail": error.message,
        ])
    }

    static func invalid(_ detail: String) -> String {
        encode(["status": "invalid", "detail": detail])
    }

    /// One JSON object on one line, keys sorted (`channels` prints the same way).
    static func encode(_ object: [String: Any]) -> String {
        guard let data = try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes]) else { return "{}" }
        return String(decoding: data, as: UTF8.self)
    }
}
