import APNsClient
import APNsCore
import Foundation
import Worker

/// The JSON `channels` prints: APNs' answer with the channel fields a script wants (bad arguments and
/// unanswered requests print as `send`'s do).
enum ChannelOutput {
    static func response(_ response: APNsResponse, request: ChannelRequest) -> String {
        var object: [String: Any] = ["bundle_id": request.bundleID]
        switch response {
        case .accepted(let acceptance):
            object["status"] = JobStatus.delivered.rawValue
            object["http_status"] = acceptance.status
            object["apns_request_id"] = acceptance.requestID
            object["channel_id"] = acceptance.channelID
            if let body = try? JSONSerialization.jsonObject(with: Data(acceptance.body)) as? [String: Any] {
                object["message_storage_policy"] = body["message-storage-policy"]
                object["channels"] = body["channels"]
            }
        case .rejected(let rejection):
            object["status"] = JobStatus.rejected.rawValue
            object["http_status"] = rejection.status
            object["reason"] = rejection.reason.name
            object["apns_request_id"] = rejection.requestID
        }
        return SendOutput.encode(object)
    }
}
