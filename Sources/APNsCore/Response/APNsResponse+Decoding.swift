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
        guard status != 200 else {
            self = .accepted(APNsAcceptance(apnsID: header("apns-id"), uniqueID: header("apns-unique-id")))
            return
        }
        let json = (try? JSONSerialization.jsonObject(with: Data(body))) as? [String: Any]
        let timestamp = (json?["timestamp"] as? NSNumber)?.int64Value
        self = .rejected(
            APNsRejection(
                status: status,
                reason: APNsReason(name: json?["reason"] as? String ?? ""),
                apnsID: header("apns-id"),
                timestampMilliseconds: timestamp,
                retryAfterSeconds: header("retry-after").flatMap { Int($0.trimmingCharacters(in: .whitespaces)) }
            )
        )
    }
}
