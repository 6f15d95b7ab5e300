import AMQP
import APNsCore
import Foundation
import Logging
import Metrics

/// What the processor publishes for each verdict.
extension JobProcessor {
    /// The result of `verdict`, with a retry or dead-letter copy where the verdict calls for one.
    func complete(_ verdict: Verdict, job: Job, credential: String, attempts: Int, deferrals: Int = 0, context: ResultContext) -> [Publication] {
        var result = context.result(status: .failed, attempts: attempts, completedAt: now(), job: job)
        result.credential = credential
        switch verdict {
        case .delivered(let acceptance):
            result.status = .delivered
            result.httpStatus = 200
            result.apnsID = acceptance.apnsID ?? job.request.apnsID?.value
            result.apnsUniqueID = acceptance.uniqueID
        case .rejected(let rejection):
            result.status = .rejected
            result.apply(rejection)
        case .failed(let code, let detail, let rejection):
            if let rejection { result.apply(rejection) }
            // The failure code, even when APNs gave no reason (then it is "HTTP<status>").
            result.reason = code
            result.detail = detail
            return [messages.result(result, replyTo: context.replyTo), deadLetter(context.delivery.message, verdict, attempts: attempts, credential: credential)]
        case .expired(let lastError):
            result.status = .expired
            result.detail = lastError
            return [messages.result(result, replyTo: context.replyTo), deadLetter(context.delivery.message, verdict, attempts: attempts, credential: credential)]
        case .retry(let tier, let delay, let lastError):
            logger.debug("retrying job", metadata: ["job": "\(job.id)", "attempts": "\(attempts)", "tier": "\(tier)", "error": "\(lastError)"])
            return [messages.retry(context.delivery.message, tier: tier, delay: delay, attempts: attempts, deferrals: deferrals, lastError: lastError, credential: credential)]
        case .credentialRefused(let lastError):
            return [postpone(context.delivery, job: job, for: credentialBackoff.seconds, reason: lastError, credential: credential)]
        }
        if result.apnsID == nil { result.apnsID = job.request.apnsID?.value }
        return [messages.result(result, replyTo: context.replyTo)]
    }

    /// A job that cannot be sent: a `failed` result (when it has an id) and a dead letter.
    func malformed(_ error: JobError, attempts: Int, job: Job? = nil, context: ResultContext) -> [Publication] {
        var publications = [messages.deadLetter(context.delivery.message, attempts: attempts, lastError: error.description, at: now(), credential: nil)]
        if error.jobID != nil {
            var result = context.result(status: .failed, attempts: attempts, completedAt: now(), job: job)
            result.id = error.jobID
            result.reason = error.code
            result.detail = error.detail
            publications.insert(messages.result(result, replyTo: context.replyTo), at: 0)
        }
        return publications
    }

    /// A dead letter of `original` for a `failed` or `expired` verdict, published at `now()`.
    func deadLetter(_ original: AMQPMessage, _ verdict: Verdict, attempts: Int, credential: String?) -> Publication {
        messages.deadLetter(original, attempts: attempts, lastError: verdict.lastError ?? "\(verdict)", at: now(), credential: credential)
    }

    /// The job back to a retry tier at least `seconds` long, its attempts unchanged.
    func postpone(_ delivery: AMQPDelivery, job: Job, for seconds: TimeInterval, reason: String, credential: String?) -> Publication {
        postpone(delivery, attempts: job.previousAttempts, deferrals: job.previousDeferrals, for: seconds, reason: reason, credential: credential)
    }

    /// Any job's message back to a retry tier at least `seconds` long, with these counts.
    func postpone(_ delivery: AMQPDelivery, attempts: Int, deferrals: Int, for seconds: TimeInterval, reason: String, credential: String?) -> Publication {
        let (tier, delay) = policy.schedule(attempts: 1, retryAfter: .seconds(max(0, seconds)), jitter: 1)
        return messages.retry(delivery.message, tier: tier, delay: delay, attempts: attempts, deferrals: deferrals, lastError: reason, credential: credential)
    }

    /// The `last-error` of a job postponed because its credential is paused.
    static func pausedReason(_ credential: String) -> String {
        "CredentialPaused: credential \(credential) is paused"
    }

    /// APNs refused `credential`: it is paused for the credential backoff, and said so once.
    func pauseRefused(_ credential: String, lastError: String, jobID: String) {
        let until = now().addingTimeInterval(credentialBackoff.seconds)
        gate.pause(credential, until: until)
        logger.error("APNs refused credential; pausing it", metadata: ["credential": "\(credential)", "error": "\(lastError)", "until": "\(until)", "job": "\(jobID)"])
    }
}

extension JobResult {
    mutating func apply(_ rejection: APNsRejection) {
        httpStatus = rejection.status
        reason = rejection.reason.name
        timestamp = rejection.timestampMilliseconds
        if let id = rejection.apnsID { apnsID = id }
    }
}
