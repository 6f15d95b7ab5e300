import AMQP
import APNsCore
import Foundation
import Logging
import WorkerConfiguration

/// What a job publishes for its verdict: the result, with a retry or dead-letter copy where the
/// verdict calls for one, for every kind of job (a notification here; a multicast pass and a channel
/// request in the extensions beside their jobs).
///
/// The decision core of the job's path, and nothing else: synchronous, no I/O and no shared state,
/// its only inputs the job, the verdict and the injected clock (it writes a debug line for a retry,
/// nothing else), so a table of verdicts tests it whole (`PublicationPlannerTests`). Sending, pausing
/// a refused credential and handing the messages to the broker stay with ``JobProcessor`` and
/// ``JobSettler``.
struct PublicationPlanner: Sendable {
    let messages: OutgoingMessages
    let policy: RetryPolicy
    /// How long a credential APNs refused stays paused; its jobs wait at least this long.
    let credentialBackoff: Duration
    let logger: Logger
    let now: @Sendable () -> Date

    /// The publications of `verdict`. `result` comes filled with what the job's kind reports, and
    /// `readAnswer` writes APNs' answer (an acceptance, a rejection) into it: the one step that differs
    /// between a notification and a channel request.
    ///
    /// - Parameters:
    ///   - tries: the job's counts after this try; a retry copy and a dead letter carry them.
    ///   - previous: the counts the job arrived with; a job postponed for a refused credential keeps them.
    func publications(
        for verdict: Verdict, result: consuming JobResult, tries: Tries, previous: Tries, credential: String, context: ResultContext,
        readAnswer: (inout JobResult, Verdict) -> Void
    ) -> [Publication] {
        // Consumed, so this is a move: a copy retained each of the result's strings.
        var result = result
        result.credential = credential
        let original = context.delivery.message
        switch verdict {
        case .delivered:
            result.status = .delivered
            readAnswer(&result, verdict)
        case .rejected:
            result.status = .rejected
            readAnswer(&result, verdict)
        case .failed(let code, let detail, _):
            readAnswer(&result, verdict)
            // The failure code, even when APNs gave no reason (then it is "HTTP<status>").
            result.reason = code
            result.detail = detail
            return [messages.result(result, replyTo: context.replyTo), deadLetter(original, verdict, lane: context.lane, attempts: tries.attempts, credential: credential)]
        case .expired(let lastError):
            result.status = .expired
            result.detail = lastError
            return [messages.result(result, replyTo: context.replyTo), deadLetter(original, verdict, lane: context.lane, attempts: tries.attempts, credential: credential)]
        case .retry(let tier, let delay, let lastError):
            logger.debug("retrying job", metadata: ["job": "\(result.id ?? "?")", "attempts": "\(tries.attempts)", "tier": "\(tier)", "error": "\(lastError)"])
            return [messages.retry(original, lane: context.lane, tier: tier, delay: delay, attempts: tries.attempts, deferrals: tries.deferrals, lastError: lastError, credential: credential)]
        case .credentialRefused(let lastError):
            return [postpone(context.delivery, tries: previous, for: credentialBackoff.seconds, reason: lastError, credential: credential)]
        }
        return [messages.result(result, replyTo: context.replyTo)]
    }

    /// The publications of a notification's `verdict`.
    func notification(_ verdict: Verdict, job: Job, credential: String, tries: Tries, context: ResultContext) -> [Publication] {
        let result = context.result(status: .failed, attempts: tries.attempts, completedAt: now(), job: job)
        return publications(for: verdict, result: result, tries: tries, previous: job.previousTries, credential: credential, context: context) { result, verdict in
            switch verdict {
            case .delivered(let acceptance):
                result.httpStatus = 200
                result.apnsID = acceptance.apnsID ?? job.request.apnsID?.value
                result.apnsUniqueID = acceptance.uniqueID
            case .rejected(let rejection):
                result.apply(rejection)
                if result.apnsID == nil { result.apnsID = job.request.apnsID?.value }
            case .failed(_, _, let rejection?):
                result.apply(rejection)
            default:
                break
            }
        }
    }

    /// A job that cannot be sent: a `failed` result (when it has an id) and a dead letter.
    func malformed(_ error: JobError, attempts: Int, job: Job? = nil, context: ResultContext) -> [Publication] {
        var publications = [messages.deadLetter(context.delivery.message, lane: context.lane, attempts: attempts, lastError: error.description, at: now(), credential: nil)]
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
    func deadLetter(_ original: AMQPMessage, _ verdict: Verdict, lane: Lane, attempts: Int, credential: String?) -> Publication {
        messages.deadLetter(original, lane: lane, attempts: attempts, lastError: verdict.lastError ?? "\(verdict)", at: now(), credential: credential)
    }

    /// Any job's message back to a retry tier at least `seconds` long, with the counts it arrived with
    /// (`tries`): a postponed job was not tried.
    func postpone(_ delivery: AMQPDelivery, tries: Tries, for seconds: TimeInterval, reason: String, credential: String?) -> Publication {
        let (tier, delay) = policy.schedule(attempts: 1, retryAfter: .seconds(max(0, seconds)), jitter: 1)
        return messages.retry(delivery.message, lane: messages.lane(of: delivery), tier: tier, delay: delay, attempts: tries.attempts, deferrals: tries.deferrals, lastError: reason, credential: credential)
    }

    /// The `last-error` of a job postponed because its credential is paused.
    static func pausedReason(_ credential: String) -> String {
        "CredentialPaused: credential \(credential) is paused"
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
