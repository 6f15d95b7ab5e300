import AMQP
import APNsCore
import Foundation
import WorkerConfiguration

/// What every result of one delivery shares: the delivery, times, where results go.
struct ResultContext: Sendable {
    let delivery: AMQPDelivery
    /// The lane it waited in; its retry copies and dead letter keep it.
    let lane: Lane
    /// Whether it waited in the urgent lane: its requests go ahead of other jobs' at APNs too.
    var isUrgent: Bool { lane == .urgent }
    let received: Date
    let replyTo: String?
    let workerName: String

    /// A result with the fields every status shares filled in, from `job` once it is decoded.
    func result(status: JobStatus, attempts: Int, completedAt: Date, job: Job?) -> JobResult {
        var result = JobResult(id: job?.id, status: status, attempts: attempts, completedAt: completedAt, worker: workerName)
        result.deviceToken = job?.request.deviceToken.hexString
        result.topic = job?.request.topic
        // Clamped: a producer's `published-at` can be any 64-bit number, and a conversion out of range traps.
        result.latencyMS = Int64(min(max(0, completedAt.timeIntervalSince(start) * 1000), Self.longestLatencyMS))
        return result
    }

    /// When the job started: the producer's `published-at` header (milliseconds), else its AMQP
    /// timestamp (whole seconds), else when this worker received it.
    var start: Date {
        // Read in place: a local copy of the properties retained each of their strings.
        if case .int(let milliseconds) = delivery.message.properties.headers[Self.publishedAtHeader] {
            return Date(timeIntervalSince1970: TimeInterval(milliseconds) / 1000)
        }
        return delivery.message.properties.timestamp.map { Date(timeIntervalSince1970: TimeInterval($0)) } ?? received
    }

    /// The largest latency a result reports (a year): anything longer is a producer's clock error.
    static let longestLatencyMS: Double = 365 * 24 * 3600 * 1000

    /// Set by `apns-worker publish` (and any producer that wants millisecond latencies).
    static let publishedAtHeader = "published-at"
}
