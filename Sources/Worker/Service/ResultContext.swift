import AMQP
import APNsCore
import Foundation

/// What every result of one delivery shares: the delivery, times, where results go.
struct ResultContext: Sendable {
    let delivery: AMQPDelivery
    let received: Date
    let replyTo: String?
    let workerName: String

    /// A result with the fields every status shares filled in, from `job` once it is decoded.
    func result(status: JobStatus, attempts: Int, completedAt: Date, job: Job?) -> JobResult {
        var result = JobResult(id: job?.id, status: status, attempts: attempts, completedAt: completedAt, worker: workerName)
        result.deviceToken = job?.request.deviceToken.hexString
        result.topic = job?.request.topic
        result.latencyMS = Int64(max(0, completedAt.timeIntervalSince(start)) * 1000)
        return result
    }

    /// When the job started: the producer's `published-at` header (milliseconds), else its AMQP
    /// timestamp (whole seconds), else when this worker received it.
    var start: Date {
        let properties = delivery.message.properties
        if case .int(let milliseconds) = properties.headers[Self.publishedAtHeader] {
            return Date(timeIntervalSince1970: TimeInterval(milliseconds) / 1000)
        }
        return properties.timestamp.map { Date(timeIntervalSince1970: TimeInterval($0)) } ?? received
    }

    /// Set by `apns-worker publish` (and any producer that wants millisecond latencies).
    static let publishedAtHeader = "published-at"
}
