import AMQP
import APNsClient
import APNsCore
import Foundation
import Logging
import WorkerConfiguration

/// Broadcast and channel-management jobs: the same path as a notification's (resolve the credential,
/// send, decide with the same retry policy, publish the result with any retry or dead-letter copy, ack
/// after the confirms); what they publish is ``PublicationPlanner/channel(_:job:credential:tries:context:)``'s.
extension JobProcessor {
    /// Resolves a decoded channel job and decides whether it goes to APNs.
    @inline(never)
    func start(_ job: ChannelJob, delivery: AMQPDelivery, context: ResultContext) -> JobStep {
        if let remembered = rememberedOutcome(AnsweredOutcomes.Key(jobID: job.id, previousAttempts: job.previousAttempts, message: delivery.message), jobID: job.id, delivery: delivery) {
            return remembered
        }
        let (entry, environment): (CredentialRegistry.Entry, APNsEnvironment)
        switch resolveCredential(named: job.credentialName, serving: job.request.bundleID, kind: "bundle id", in: job.environment, jobID: job.id) {
        case .failure(let error): return .publish(planner.failedChannelJob(job, code: error.code, detail: error.detail, context: context))
        case .success(let resolved): (entry, environment) = resolved
        }
        let name = entry.settings.name
        let now = now()
        switch Admission.decide(deadline: job.deadline, pausedUntil: gate.pausedUntil(name, at: now), now: now) {
        case .send:
            break
        case .expire:
            return .publish(planner.channel(.expired(lastError: "deadline passed before sending"), job: job, credential: name, tries: job.previousTries, context: context))
        case .wait(let until):
            return .publish([planner.postpone(delivery, tries: job.previousTries, for: until.timeIntervalSince(now), reason: PublicationPlanner.pausedReason(name), credential: name)])
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
        let verdict = planner.policy.verdict(for: outcome, deadline: job.deadline, attempts: tries.attempts, deferrals: tries.deferrals, now: now())
        if case .credentialRefused(let lastError) = verdict { pauseRefused(pending.credentialName, lastError: lastError, jobID: job.id) }
        return planner.channel(verdict, job: job, credential: pending.credentialName, tries: tries, context: pending.context)
    }
}
