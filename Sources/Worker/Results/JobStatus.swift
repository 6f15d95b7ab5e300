/// How a job ended.
public enum JobStatus: String, Codable, Hashable, Sendable {
    /// APNs accepted the notification.
    case delivered
    /// APNs refused it for good (bad or dead device token, bad request): never retried.
    case rejected
    /// It could not be sent: malformed, or transient failures outlasted the retries.
    case failed
    /// Its deadline passed before it could be delivered.
    case expired
    /// A multicast job's tokens ended in more than one of the above (its `tokens` counts say how).
    case partial
}
