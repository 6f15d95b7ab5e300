public import AMQP
import APNsCore
public import Foundation

/// One message in the dead-letter queue as an operator triages it: which job, why it is there, whose
/// it is and since when. Read from the message alone; a body that is not a valid job still gives
/// what it can (its id, the failure the worker recorded).
public struct DeadLetter: Sendable {
    public let jobID: String?
    /// The failure's code: `last-error` up to its first colon (`BadDeviceToken`, `expired`,
    /// `invalid_json`…); for a message the broker dead-lettered itself (a job past its delivery limit),
    /// the reason in its `x-death` header (`delivery_limit`); `unknown` when neither is there.
    public let reason: String
    /// The whole `last-error` text the worker wrote.
    public let lastError: String?
    /// The job's `credential`, when it names one and decodes.
    public let credential: String?
    public let topic: String?
    /// APNs attempts made before the job was given up (its `retry-attempt` header).
    public let attempts: Int
    /// When the job was dead-lettered: the worker's `dead-lettered-at` header, else the broker's
    /// `x-death` time; `nil` for a message that has neither (it then matches no age filter).
    public let deadLetteredAt: Date?

    public init(_ message: AMQPMessage) {
        let headers = message.properties.headers
        if case .string(let error)? = headers[RetryHeaders.lastError] {
            lastError = error
            reason = String(error.prefix { $0 != ":" })
        } else {
            lastError = nil
            reason = Self.brokerDeath(headers).flatMap { death in
                if case .string(let reason)? = death["reason"] { return reason }
                return nil
            } ?? "unknown"
        }
        if case .int(let count)? = headers[RetryHeaders.attempts] { attempts = Int(clamping: max(0, count)) } else { attempts = 0 }
        deadLetteredAt = Self.time(headers)
        switch JobDecoder.decode(JobEnvelope(body: message.body, messageID: message.properties.messageID)) {
        case .success(let job):
            jobID = job.id
            credential = job.credentialName
            topic = job.request.topic
        case .failure(let error):
            jobID = error.jobID ?? message.properties.messageID
            credential = nil
            topic = nil
        }
    }

    /// The header the worker writes on every dead letter: milliseconds since 1970.
    public static let deadLetteredAtHeader = "dead-lettered-at"

    private static func time(_ headers: [String: AMQPFieldValue]) -> Date? {
        if case .int(let milliseconds)? = headers[deadLetteredAtHeader] {
            return Date(timeIntervalSince1970: TimeInterval(milliseconds) / 1000)
        }
        if case .int(let seconds)? = brokerDeath(headers)?["time"] {
            return Date(timeIntervalSince1970: TimeInterval(seconds))
        }
        return nil
    }

    /// The newest `x-death` entry (RabbitMQ puts it first).
    private static func brokerDeath(_ headers: [String: AMQPFieldValue]) -> [String: AMQPFieldValue]? {
        guard case .array(let deaths)? = headers["x-death"], case .table(let newest)? = deaths.first else { return nil }
        return newest
    }
}
