public import AMQP
import APNsCore
public import Foundation
import Worker

/// One message in the dead-letter queue as an operator triages it: which job, why it is there, whose
/// it is and since when. Read from the message alone; a body that is not a valid job still gives
/// what it can (its id, the failure the worker recorded).
public struct DeadLetter: Sendable {
    public let jobID: String?
    /// The failure's code: for a letter the worker wrote (it has `dead-lettered-at`), `last-error` up to
    /// its first colon (`ServiceUnavailable`, `BadDeviceToken`, `expired`, `InvalidJSON`…); for a
    /// message the broker dead-lettered itself (a job past its delivery limit, which may carry a retry's
    /// `last-error`), the reason in its `x-death` header (`delivery_limit`); `unknown` when neither is there.
    public let reason: String
    /// The whole `last-error` text the worker wrote.
    public let lastError: String?
    /// The credential the worker chose for the job (its `credential` header), else the one the job names.
    public let credential: String?
    public let topic: String?
    /// APNs attempts made before the job was given up (its `retry-attempt` header).
    public let attempts: Int
    /// When the job was dead-lettered: the worker's `dead-lettered-at` header, else the broker's
    /// `x-death` time; `nil` for a message that has neither (it then matches no age filter).
    public let deadLetteredAt: Date?

    public init(_ message: AMQPMessage) {
        let headers = message.properties.headers
        if case .string(let error)? = headers[RetryHeaders.lastError] { lastError = error } else { lastError = nil }
        let brokerReason = Self.brokerDeath(headers).flatMap { death -> String? in
            if case .string(let reason)? = death["reason"] { return reason }
            return nil
        }
        if let lastError, headers[Self.deadLetteredAtHeader] != nil || brokerReason == nil {
            reason = Self.code(of: lastError)
        } else {
            reason = brokerReason ?? "unknown"
        }
        if case .int(let count)? = headers[RetryHeaders.attempts] { attempts = Int(clamping: max(0, count)) } else { attempts = 0 }
        deadLetteredAt = Self.time(headers)
        switch JobDecoder.decode(JobEnvelope(body: message.body, messageID: message.properties.messageID)) {
        case .success(let job):
            jobID = job.id
            credential = Self.chosenCredential(headers) ?? job.credentialName
            topic = job.request.topic
        case .failure(let error):
            jobID = error.jobID ?? message.properties.messageID
            credential = Self.chosenCredential(headers)
            topic = nil
        }
    }

    /// The code a `last-error` text starts with: everything before its first colon.
    public static func code(of lastError: String) -> String {
        RetryHeaders.code(ofLastError: lastError)
    }

    private static func chosenCredential(_ headers: [String: AMQPFieldValue]) -> String? {
        if case .string(let name)? = headers[RetryHeaders.credential], !name.isEmpty { return name }
        return nil
    }

    /// The header the worker writes on every dead letter: milliseconds since 1970.
    public static let deadLetteredAtHeader = RetryHeaders.deadLetteredAt

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
