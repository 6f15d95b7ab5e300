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
        var fields = HeaderFields()
        for header in headers { fields.take(name: header.name, value: header.value) }
        self.init(status: status, fields: fields, body: body)
    }

    /// Builds a response from its status, the header fields it reads (gathered by the caller in one
    /// pass over whatever holds the headers, with no array made for this), and the body.
    public init(status: Int, fields: HeaderFields, body: [UInt8]) {
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

    /// The response headers an answer reads, by name without regard to ASCII case (HTTP/2 sends them
    /// lower-case anyway).
    public struct HeaderFields: Sendable {
        var apnsID: String?
        var uniqueID: String?
        var requestID: String?
        var channelID: String?
        var retryAfter: String?

        public init() {}

        /// Keeps `value` if `name` is a field an answer reads; ignores it otherwise.
        public mutating func take(name: String, value: String) {
            switch name.utf8.count {
            case 7 where Self.named(name, "apns-id"): apnsID = value
            case 11 where Self.named(name, "retry-after"): retryAfter = value
            case 14 where Self.named(name, "apns-unique-id"): uniqueID = value
            case 15 where Self.named(name, "apns-request-id"): requestID = value
            case 15 where Self.named(name, "apns-channel-id"): channelID = value
            default: break
            }
        }

        /// Compared byte by byte in the string's own storage: `utf8.elementsEqual` with a closure cost
        /// about 30 instructions a byte, and every answer's `apns-id` passes here.
        private static func named(_ name: String, _ expected: StaticString) -> Bool {
            var name = name
            return name.withUTF8 { bytes in
                guard bytes.count == expected.utf8CodeUnitCount else { return false }
                let wanted = expected.utf8Start
                for index in 0..<bytes.count where bytes[index] | 0x20 != wanted[index] | 0x20 { return false }
                return true
            }
        }
    }
}
