internal import Foundation

extension APNsResponse {
    /// Builds a response from a finished HTTP/2 stream: `:status`, the response headers, and the body.
    /// Header names match without regard to ASCII case (HTTP/2 sends them lower-case anyway).
    ///
    /// Never fails: a body that is not the documented JSON still yields a rejection with the status, and
    /// a reason of `unknown("")`, so the status-based classification can act on it.
    public init(status: Int, headers: [(name: String, value: String)], body: [UInt8]) {
        func header(_ name: String) -> String? {
            headers.first { $0.name.utf8.elementsEqual(name.utf8) { $0 | 0x20 == $1 | 0x20 } }?.value
        }
        if (200..<300).contains(status) {
            var acceptance = APNsAcceptance(apnsID: header("apns-id"), uniqueID: header("apns-unique-id"))
            acceptance.status = status
            // Channel requests' headers and body (a push's answer has neither).
            acceptance.requestID = header("apns-request-id")
            acceptance.channelID = header("apns-channel-id")
            acceptance.body = body
            self = .accepted(acceptance)
            return
        }
        let json = (try? JSONSerialization.jsonObject(with: Data(body))) as? [String: Any]
        let timestamp = (json?["timestamp"] as? NSNumber)?.int64Value
        var rejection = APNsRejection(
            status: status,
            reason: APNsReason(name: json?["reason"] as? String ?? ""),
            apnsID: header("apns-id"),
            timestampMilliseconds: timestamp,
            retryAfterSeconds: header("retry-after").flatMap { Int($0.trimmingCharacters(in: .whitespaces)) }
        )
        rejection.requestID = header("apns-request-id")
        self = .rejected(rejection)
    }
}
