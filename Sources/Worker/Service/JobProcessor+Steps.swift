import AMQP
import CoreMetrics
import APNsClient
import APNsCore
import Foundation
import Logging
import WorkerConfiguration

/// The synchronous halves of processing a job: before the send (decode, resolve, check) and after it
/// (decide; ``PublicationPlanner`` builds the messages).
///
/// `@inline(never)`: inlined into the async ``JobProcessor/process(_:)`` their temporaries (the
/// envelope, results, verdicts, log metadata) would become slots of an async frame that lives as long
/// as the APNs wait; called, they live on the thread's stack for microseconds.
extension JobProcessor {
    /// Decodes `delivery` and decides whether it goes to APNs or straight to its publications.
    @inline(never)
    func start(_ delivery: AMQPDelivery) -> JobStep {
        metrics.received.increment()
        let received = now()
        let properties = delivery.message.properties
        let retry = RetryHeaders(reading: properties.headers, maxAttempts: planner.policy.maxAttempts, maxDeferrals: planner.policy.maxDeferrals)
        let envelope = JobEnvelope(
            body: delivery.message.body,
            messageID: properties.messageID,
            replyTo: properties.replyTo,
            previousAttempts: retry.attempts,
            previousDeferrals: retry.deferrals
        )
        let context = ResultContext(delivery: delivery, lane: planner.messages.lane(of: delivery), received: received, replyTo: envelope.replyTo, workerName: workerName)
        let job: Job
        switch JobDecoder.decodeAny(envelope) {
        case .failure(let error):
            logger.warning("malformed job", metadata: ["job": "\(error.jobID.map { UntrustedText.quoted($0) } ?? "?")", "code": "\(error.code)", "detail": "\(error.detail)"])
            return .publish(planner.malformed(error, attempts: envelope.previousAttempts, context: context))
        case .success(.channel(let channelJob)):
            return start(channelJob, delivery: delivery, context: context)
        case .success(.notification(let decoded)):
            job = decoded
        }
        if let remembered = rememberedOutcome(AnsweredOutcomes.Key(jobID: job.id, previousAttempts: job.previousAttempts, message: delivery.message), jobID: job.id, delivery: delivery) {
            return remembered
        }
        let resolved: (entry: CredentialRegistry.Entry, endpoint: APNsEndpoint)
        switch resolve(job) {
        case .failure(let error):
            return .publish(planner.malformed(error, attempts: job.previousAttempts, job: job, context: context))
        case .success(let found):
            resolved = found
        }
        let name = resolved.entry.settings.name
        let pending = PendingSend(job: job, context: context, credential: resolved.entry.credential, credentialName: name, endpoint: resolved.endpoint)
        let now = now()
        switch Admission.decide(deadline: job.deadline, pausedUntil: gate.pausedUntil(name, at: now), now: now) {
        case .send:
            return .send(pending)
        case .expire:
            if let multicast = job.multicast { return .publish(planner.expired(pending, multicast)) }
            return .publish(planner.notification(.expired(lastError: "deadline passed before sending"), job: job, credential: name, tries: job.previousTries, context: context))
        case .wait(let until):
            return .publish([planner.postpone(delivery, tries: job.previousTries, for: until.timeIntervalSince(now), reason: PublicationPlanner.pausedReason(name), credential: name)])
        }
    }

    /// The outcome an earlier delivery of this job left in ``AnsweredOutcomes``, as the step that
    /// publishes it again instead of pushing again; nil when there is none. A redelivery or a retry
    /// copy takes whatever was decided; a dead letter an operator replayed takes it only if APNs
    /// accepted the push (replaying a failure asks for another try); anything else is a new job.
    /// `key` is made only for those: it hashes the body, and most deliveries are first ones.
    func rememberedOutcome(_ key: @autoclosure () -> AnsweredOutcomes.Key, jobID: String, delivery: AMQPDelivery) -> JobStep? {
        let replayed = delivery.message.properties.headers[RetryHeaders.replayedAt] != nil
        let repeated = Self.mayRepeat(delivery)
        guard repeated || replayed, let outcome = answered.outcome(for: key()), repeated || outcome.accepted else { return nil }
        metrics.republished.increment()
        logger.info("job already answered by APNs: publishing its outcome again, not pushing again", metadata: ["job": "\(jobID)", "replayed": "\(replayed)"])
        return .republish(outcome.publications)
    }

    /// Whether `delivery` may be one this process already took: a redelivery, or a retry copy (the
    /// broker can hand the same one back twice).
    static func mayRepeat(_ delivery: AMQPDelivery) -> Bool {
        delivery.redelivered || RetryHeaders.copy(of: delivery.message) != nil
    }

    /// What to publish after the send: the verdict on `outcome`, pausing the credential if APNs refused it.
    @inline(never)
    func conclude(_ pending: PendingSend, outcome: Result<APNsResponse, APNsSendError>) -> [Publication] {
        let (job, context, name) = (pending.job, pending.context, pending.credentialName)
        // A try APNs never processed (no stream in time, refused, no connection) is not an attempt.
        let tries = job.previousTries.after(processed: outcome.processedByAPNs)
        let verdict = planner.policy.verdict(for: outcome, job: job, attempts: tries.attempts, deferrals: tries.deferrals, now: now())
        if case .credentialRefused(let lastError) = verdict { pauseRefused(name, lastError: lastError, jobID: job.id) }
        return planner.notification(verdict, job: job, credential: name, tries: tries, context: context)
    }

    /// APNs refused `credential`: it is paused for the credential backoff, and said so once.
    func pauseRefused(_ credential: String, lastError: String, jobID: String) {
        let until = now().addingTimeInterval(planner.credentialBackoff.seconds)
        gate.pause(credential, until: until)
        logger.error("APNs refused credential; pausing it", metadata: ["credential": "\(credential)", "error": "\(lastError)", "until": "\(until)", "job": "\(jobID)"])
    }

    /// The credential and endpoint for `job`: named, or by topic; the job's environment may pick the
    /// other APNs host for a token credential (tokens work in both; certificates do not).
    private func resolve(_ job: Job) -> Result<(entry: CredentialRegistry.Entry, endpoint: APNsEndpoint), JobError> {
        resolveCredential(named: job.credentialName, serving: job.request.topic, in: job.environment, jobID: job.id).map { entry, environment in
            (entry, environment == entry.environment ? entry.endpoint : endpointOverride ?? APNsEndpoint(environment: environment))
        }
    }

    /// The credential a job names, or the one serving `topic` (a topic, or a channel job's bundle id:
    /// `kind` says which, for the error), and the environment it is sent in: the job's, which a token
    /// credential may serve besides its own and a certificate credential may not.
    func resolveCredential(
        named name: String?, serving topic: String, kind: String = "topic", in environment: APNsEnvironment?, jobID: String
    ) -> Result<(CredentialRegistry.Entry, APNsEnvironment), JobError> {
        guard let entry = name.map({ credentials.entry(named: $0) }) ?? credentials.entry(forTopic: topic) else {
            let detail = name.map { "no credential named \($0)" } ?? "no credential serves \(kind) \(topic)"
            return .failure(JobError(code: JobError.unknownCredential, detail: detail, jobID: jobID))
        }
        let environment = environment ?? entry.environment
        guard environment == entry.environment || entry.credential.usesTokens else {
            return .failure(JobError(code: "EnvironmentMismatch", detail: "certificate credential \(entry.settings.name) serves \(entry.environment) only", jobID: jobID))
        }
        return .success((entry, environment))
    }
}
