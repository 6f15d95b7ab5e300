import AMQP
import APNsClient
import APNsCore
import Foundation
import JSON
import Logging
import WorkerConfiguration

/// Broadcast and channel-management jobs: the same path as a notification's (resolve the credential,
/// send, decide with the same retry policy, publish the result with any retry or dead-letter copy, ack
/// after the confirms), with a result that carries APNs' answer: the new channel's id, the channel's
/// policy, the app's channels, the request id.
extension JobProcessor {
    /// Resolves a decoded channel job and decides whether it goes to APNs.
    @inline(never)
    func start(_ job: ChannelJob, delivery: AMQPDelivery, context: ResultContext) -> JobStep {
        if let remembered = rememberedOutcome(AnsweredOutcomes.Key(jobID: job.id, previousAttempts: job.previousAttempts, message: delivery.message), jobID: job.id, delivery: delivery) {
            return remembered
        }
        let (entry, environment): (CredentialRegistry.Entry, APNsEnvironment)
        switch resolveCredential(named: job.credentialName, serving: job.request.bundleID, kind: "bundle id", in: job.environment, jobID: job.id) {
        case .failure(let error): return .publish(failedChannelJob(job, code: error.code, detail: error.detail, context: context))
        case .success(let resolved): (entry, environment) = resolved
        }
        let name = entry.settings.name
        let now = now()
        switch Admission.decide(deadline: job.deadline, pausedUntil: gate.pausedUntil(name, at: now), now: now) {
        case .send:
            break
        case .expire:
            return .publish(completeChannel(.expired(lastError: "deadline passed before sending"), job: job, credential: name, tries: job.previousTries, context: context))
        case .wait(let until):
            return .publish([postpone(delivery, tries: job.previousTries, for: until.timeIntervalSince(now), reason: Self.pausedReason(name), credential: name)])
        }
        let endpoint = job.request.isBroadcast
            ? broadcastEndpointSetting ?? endpointOverride ?? APNsEndpoint(environment: environment)
            : channelEndpointSetting ?? endpointOverride ?? APNsEndpoint.channelManagement(environment)
        return .channel(PendingChannelRequest(job: job, context: context, credential: entry.credential, credentialName: name, endpoint: endpoint))
    }

    /// Sends the request and turns APNs' answer into what to publish.
    func send(_ pending: PendingChannelRequest) async -> [Publication] {
        let outcome = await Result(sending: { try await sender.send(pending.job.request, credential: pending.credential, endpoint: pending.endpoint, urgent: pending.context.isUrgent) })
        return conclude(pending, outcome: outcome)
    }

    @inline(never)
    private func conclude(_ pending: PendingChannelRequest, outcome: Result<APNsResponse, APNsSendError>) -> [Publication] {
        let job = pending.job
        let tries = job.previousTries.after(processed: outcome.processedByAPNs)
        let verdict = policy.verdict(for: outcome, deadline: job.deadline, attempts: tries.attempts, deferrals: tries.deferrals, now: now())
        if case .credentialRefused(let lastError) = verdict { pauseRefused(pending.credentialName, lastError: lastError, jobID: job.id) }
        return completeChannel(verdict, job: job, credential: pending.credentialName, tries: tries, context: pending.context)
    }

    /// The publications of a channel request's `verdict`: as a notification's, with APNs' answer read
    /// into the result a consumer reads (the new channel's id, a read's policy, a list's channels).
    private func completeChannel(_ verdict: Verdict, job: ChannelJob, credential: String, tries: Tries, context: ResultContext) -> [Publication] {
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
    private func failedChannelJob(_ job: ChannelJob, code: String, detail: String, context: ResultContext) -> [Publication] {
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
