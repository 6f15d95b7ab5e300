import JSON

/// What became of one token of a multicast job: an entry of its result's `failures` (every token not
/// delivered), so a consumer can delete dead tokens without a result per token.
public struct TokenOutcome: Codable, Hashable, Sendable {
    /// The full token (a cleanup service needs it whole), or the listed text when it was no token.
    public var deviceToken: String
    public var status: JobStatus
    public var apnsID: String?
    public var httpStatus: Int?
    /// The APNs reason (rejected), or the failure code (failed).
    public var reason: String?
    public var detail: String?
    /// For 410: when APNs last knew the token was valid, in milliseconds since 1970.
    public var timestamp: Int64?

    enum CodingKeys: String, CodingKey {
        case status, reason, detail, timestamp
        case deviceToken = "device_token"
        case apnsID = "apns_id"
        case httpStatus = "http_status"
    }

    public init(deviceToken: String, status: JobStatus) {
        self.deviceToken = deviceToken
        self.status = status
    }

    /// The JSON object, keys sorted as ``JobResult/encoded()`` sorts its own.
    func encoded() -> [UInt8] {
        var writer = JSONObjectWriter(capacity: 192)
        writer.field(CodingKeys.apnsID.rawValue, apnsID)
        writer.field(CodingKeys.detail.rawValue, detail)
        writer.field(CodingKeys.deviceToken.rawValue, deviceToken)
        writer.field(CodingKeys.httpStatus.rawValue, httpStatus)
        writer.field(CodingKeys.reason.rawValue, reason)
        writer.field(CodingKeys.status.rawValue, status.rawValue)
        writer.field(CodingKeys.timestamp.rawValue, timestamp)
        return writer.finish()
    }
}

/// A multicast result's counts by outcome: every token of the pass is in exactly one of them, except
/// `repeated`, which counts listed duplicates (each token is sent once).
public struct TokenCounts: Codable, Hashable, Sendable {
    public var delivered = 0
    public var rejected = 0
    public var failed = 0
    public var expired = 0
    /// Sent to a retry tier in a smaller job holding only these tokens: answered by a later result.
    public var retrying = 0
    public var repeated = 0

    public init() {}

    /// Tokens this result answers (all but the retrying ones).
    public var answered: Int { delivered + rejected + failed + expired }

    mutating func count(_ status: JobStatus) {
        switch status {
        case .delivered: delivered += 1
        case .rejected: rejected += 1
        case .failed: failed += 1
        case .expired: expired += 1
        case .partial: break
        }
    }

    func encoded() -> [UInt8] {
        var writer = JSONObjectWriter(capacity: 96)
        writer.field("delivered", delivered)
        writer.field("expired", expired)
        writer.field("failed", failed)
        writer.field("rejected", rejected)
        writer.field("repeated", repeated)
        writer.field("retrying", retrying)
        return writer.finish()
    }
}
