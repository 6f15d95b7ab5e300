import APNsClient
import APNsCore
import JSON
import Worker

/// The JSON `channels` prints: APNs' answer with the channel fields a script wants (bad arguments and
/// unanswered requests print as `send`'s do).
enum ChannelOutput {
    static func response(_ response: APNsResponse, request: ChannelRequest) -> String {
        var object: [String: JSONValue] = ["bundle_id": .string(request.bundleID)]
        switch response {
        case .accepted(let acceptance):
            object["status"] = .string(JobStatus.delivered.rawValue)
            object["http_status"] = JSONValue(acceptance.status)
            object["apns_request_id"] = JSONValue(acceptance.requestID)
            object["channel_id"] = JSONValue(acceptance.channelID)
            if case .object(let body)? = try? JSONReader.parse(acceptance.body) {
                object["message_storage_policy"] = body["message-storage-policy"]
                object["channels"] = body["channels"]
            }
        case .rejected(let rejection):
            object["status"] = .string(JobStatus.rejected.rawValue)
            object["http_status"] = JSONValue(rejection.status)
            object["reason"] = .string(rejection.reason.name)
            object["apns_request_id"] = JSONValue(rejection.requestID)
        }
        return SendOutput.encode(object)
    }
}
