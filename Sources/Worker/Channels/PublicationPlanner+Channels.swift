import AMQP
import APNsCore
import Foundation
import JSON

/// What a channel job publishes: a notification's publications, with a result that carries APNs'
/// answer (the new channel's id, the channel's policy, the app's channels, the request id).
extension PublicationPlanner {
    /// The publications of a channel request's `verdict`: as a notification's, with APNs' answer read
    /// into the result a consumer reads (the new channel's id, a read's policy, a list's channels).
    func channel(_ verdict: Verdict, job: ChannelJob, credential: String, tries: Tries, context: ResultContext) -> [Publication] {
        let result = channelResult(job, status: .failed, attempts: tries.attempts, context: context)
        return publications(for: verdict, result: result, tries: tries, previous: job.previousTries, credential: credential, context: context) { result, verdict in
            switch verdict {
            case .delivered(let acceptance):
                result.httpStatus = acceptance.status
                result.requestID = acceptance.requestID ?? result.requestID
                if case .create = job.request.operation { result.channelID = acceptance.channelID }
                Self.read(acceptance.body, into: &result)
            case .rejected(let rejection):
                result.apply(rejection)
                result.apnsID = nil
                result.requestID = rejection.requestID ?? result.requestID
            case .failed(_, _, let rejection):
                if let rejection { result.apply(rejection) }
                result.apnsID = nil
            default:
                break
            }
        }
    }

    /// A channel job that cannot be sent (no credential for it): a failed result and a dead letter.
    func failedChannelJob(_ job: ChannelJob, code: String, detail: String, context: ResultContext) -> [Publication] {
        var result = channelResult(job, status: .failed, attempts: job.previousAttempts, context: context)
        result.reason = code
        result.detail = detail
        return [messages.result(result, replyTo: context.replyTo), messages.deadLetter(context.delivery.message, lane: context.lane, attempts: job.previousAttempts, lastError: "\(code): \(detail)", at: now(), credential: nil)]
    }

    private func channelResult(_ job: ChannelJob, status: JobStatus, attempts: Int, context: ResultContext) -> JobResult {
        var result = context.result(status: status, attempts: attempts, completedAt: now(), job: nil)
        result.id = job.id
        result.topic = job.request.bundleID
        result.channelAction = job.action
        result.channelID = job.channelID
        result.requestID = job.request.requestID?.value
        return result
    }

    /// A read's policy or a list's channel ids, from APNs' JSON body.
    private static func read(_ body: [UInt8], into result: inout JobResult) {
        guard !body.isEmpty, case .object(let fields)? = try? JSONReader.parse(body) else { return }
        if case .integer(let policy)? = fields["message-storage-policy"] { result.messageStoragePolicy = Int(clamping: policy) }
        if case .array(let items)? = fields["channels"] {
            result.channels = items.compactMap { if case .string(let id) = $0 { id } else { nil } }
        }
    }
}
