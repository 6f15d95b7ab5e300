internal import JSON

extension APNsResponse {
    /// Builds a response from a finished HTTP/2 stream: `:status`, the response headers, and the body.
    /// Header names match without regard to ASCII case (HTTP/2 sends them lower-case anyway).
    ///
    /// Never fails: a body that is not the documented JSON still yields a rejection with the status, and
    /// a reason of `unknown("")`, so the status-based classification can act on it.
    public init(status: Int, headers: [(name: String, value: String)], body: [UInt8]) {
        // One pass over the (few) headers for every field either kind of answer may carry: each push's
        // answer comes through here, and a lookup per field showed in the worker's profile.
        var fields = Fields()
        for header in headers { fields.take(header) }
        if (200..<300).contains(status) {
            var acceptance = APNsAcceptance(apnsID: fields.apnsID, uniqueID: fields.uniqueID)
            acceptance.status = status
            // Channel requests' headers and body (a push's answer has neither).
            acceptance.requestID = fields.requestID
            acceptance.channelID = fields.channelID
            acceptance.body = body
            self = .accepted(acceptance)
            return
        }
        // Only a body that is wholly a JSON object counts: members read before a syntax error do not.
        let reading = JSONReader.readObject(body)
        let members = reading.error == nil ? reading.members : nil
        var rejection = APNsRejection(
            status: status,
            reason: APNsReason(name: members?["reason"].flatMap { members?.string($0) } ?? ""),
            apnsID: fields.apnsID,
            timestampMilliseconds: members?["timestamp"].flatMap { members?.integer($0) },
            retryAfterSeconds: fields.retryAfter.flatMap(Self.seconds)
        )
        rejection.requestID = fields.requestID
        self = .rejected(rejection)
    }

    /// A `retry-after` value in seconds (APNs sends an integer), spaces or tabs around it allowed.
    private static func seconds(_ text: String) -> Int? {
        let words = text.split(whereSeparator: { $0 == " " || $0 == "\t" })
        return words.count == 1 ? Int(words[0]) : nil
    }

    /// The response headers the answer reads, by name without regard to ASCII case (HTTP/2 sends them
    /// lower-case anyway).
    private struct Fields {
        var apnsID: String?
        var uniqueID: String?
        var requestID: String?
        var channelID: String?
        var retryAfter: String?

        mutating func take(_ header: (name: String, value: String)) {
            switch header.name.utf8.count {
            case 7 where Self.named(header.name, "apns-id"): apnsID = header.value
            case 11 where Self.named(header.name, "retry-after"): retryAfter = header.value
            case 14 where Self.named(header.name, "apns-unique-id"): uniqueID = header.value
            case 15 where Self.named(header.name, "apns-request-id"): requestID = header.value
            case 15 where Self.named(header.name, "apns-channel-id"): channelID = header.value
            default: break
            }
        }

        private static func named(_ name: String, _ expected: StaticString) -> Bool {
            name.utf8.elementsEqual(UnsafeBufferPointer(start: expected.utf8Start, count: expected.utf8CodeUnitCount)) { $0 | 0x20 == $1 | 0x20 }
        }
    }
}
