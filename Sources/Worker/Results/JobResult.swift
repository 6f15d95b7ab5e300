public import Foundation

/// The result message published for every job, to the results exchange or the job's `reply_to`.
///
/// Field names are the wire format (snake_case); absent values are left out.
public struct JobResult: Codable, Hashable, Sendable {
    public var id: String?
    public var status: JobStatus
    public var apnsID: String?
    public var apnsUniqueID: String?
    public var httpStatus: Int?
    /// The APNs reason (rejected), or the failure code (failed).
    public var reason: String?
    /// A human-readable explanation, for failed jobs.
    public var detail: String?
    /// For 410: when APNs last knew the token was valid, in milliseconds since 1970.
    public var timestamp: Int64?
    /// The full device token: a token-cleanup service needs it to delete dead tokens.
    public var deviceToken: String?
    public var topic: String?
    public var credential: String?
    /// APNs attempts made for this job, over every delivery and retry.
    public var attempts: Int
    public var completedAt: Date
    /// From the job's AMQP timestamp (when the producer set one) or its receipt, to this result.
    public var latencyMS: Int64?
    /// The worker that produced the result.
    public var worker: String
    /// Channel jobs: the action (`create`, `read`, `delete`, `list`, `broadcast`).
    public var channelAction: String?
    /// Channel jobs: the channel (for a create, the new channel's id from APNs).
    public var channelID: String?
    /// Channel jobs: the `apns-request-id` of the request (APNs echoes the worker's, derived from the job id).
    public var requestID: String?
    /// A channel read: the channel's storage policy.
    public var messageStoragePolicy: Int?
    /// A channel list: the app's channel ids.
    public var channels: [String]?
    /// A multicast job's counts by outcome (absent for a single-device job).
    public var tokens: TokenCounts?
    /// A multicast job's tokens not delivered, each with its outcome.
    public var failures: [TokenOutcome]?

    enum CodingKeys: String, CodingKey {
        case id, status, reason, detail, timestamp, topic, credential, attempts, worker, tokens, failures, channels
        case channelAction = "channel_action"
        case channelID = "channel_id"
        case requestID = "apns_request_id"
        case messageStoragePolicy = "message_storage_policy"
        case apnsID = "apns_id"
        case apnsUniqueID = "apns_unique_id"
        case httpStatus = "http_status"
        case deviceToken = "device_token"
        case completedAt = "completed_at"
        case latencyMS = "latency_ms"
    }

    public init(id: String?, status: JobStatus, attempts: Int, completedAt: Date, worker: String) {
        self.id = id
        self.status = status
        self.attempts = attempts
        self.completedAt = completedAt
        self.worker = worker
    }

    /// `result.delivered`, `result.rejected.<Reason>`, `result.failed.<Code>` or `result.expired`, so a
    /// token-cleanup service can bind `result.rejected.Unregistered`; a multicast summary goes to
    /// `result.multicast.<status>`.
    public var routingKey: String {
        if tokens != nil { return "result.multicast.\(status.rawValue)" }
        return switch status {
        case .delivered: "result.delivered"
        case .expired: "result.expired"
        case .partial: "result.partial"
        case .rejected: "result.rejected.\(Self.routingWord(reason ?? "Unknown"))"
        case .failed: "result.failed.\(Self.routingWord(reason ?? "Unknown"))"
        }
    }

    /// A reason made safe for a topic routing key: no dots, no wildcards, no spaces, and short (a server
    /// could send any reason; a routing key holds at most 255 bytes).
    static func routingWord(_ text: String) -> String {
        let word = String(text.unicodeScalars.prefix(64).map { scalar in
            ("a"..."z").contains(scalar) || ("A"..."Z").contains(scalar) || ("0"..."9").contains(scalar) || scalar == "-" || scalar == "_"
                ? Character(scalar) : "_"
        })
        return word.isEmpty ? "Unknown" : word
    }
}
