public import AMQP
import CoreMetrics
import APNsClient
import APNsCore
public import Foundation
public import Logging
public import WorkerConfiguration

/// Takes one delivery from decoding to ack: send, decide, publish the result (and any retry or
/// dead-letter copy), and ack only once the broker confirmed every one of them.
public struct JobProcessor: Sendable {
    let broker: any JobBroker
    let sender: any NotificationSender
    let credentials: CredentialRegistry
    let policy: RetryPolicy
    let gate: CredentialGate
    let messages: OutgoingMessages
    /// The endpoint overriding Apple's for every environment (tests point it at the mock), if any.
    let endpointOverride: APNsEndpoint?
    let credentialBackoff: Duration
    let workerName: String
    let logger: Logger
    let now: @Sendable () -> Date
    let metrics = WorkerMetrics()
    /// Called when the broker refused a publication because its exchange does not exist (404): the
    /// service re-declares the topology, when it is allowed to.
    var onMissingExchange: @Sendable () async -> Void = {}

    public init(
        broker: any JobBroker,
        sender: any NotificationSender,
        credentials: CredentialRegistry,
        settings: WorkerSettings,
        gate: CredentialGate,
        logger: Logger,
        now: @escaping @Sendable () -> Date = { Date() }
    ) {
        self.broker = broker
        self.sender = sender
        self.credentials = credentials
        policy = RetryPolicy(tiers: settings.topology.retryTiers, maxAttempts: settings.worker.maxAttempts)
        self.gate = gate
        messages = OutgoingMessages(topology: Topology(settings: settings.topology))
        endpointOverride = settings.apns.endpoint
        credentialBackoff = settings.worker.credentialBackoff
        workerName = settings.worker.name
        self.logger = logger
        self.now = now
    }

    /// Processes one delivery; never throws: every outcome ends in an ack or a requeue.
    public func process(_ delivery: AMQPDelivery) async {
        metrics.received.increment()
        let received = now()
        let properties = delivery.message.properties
        let envelope = JobEnvelope(
            body: delivery.message.body,
            messageID: properties.messageID,
            replyTo: properties.replyTo,
            previousAttempts: properties.headers[OutgoingMessages.attemptHeader].flatMap(\.integerValue).map(Int.init) ?? 0,
            previousDeferrals: properties.headers[OutgoingMessages.deferralHeader].flatMap(\.integerValue).map(Int.init) ?? 0
        )
        var context = ResultContext(delivery: delivery, received: received, replyTo: envelope.replyTo, workerName: workerName)
        switch JobDecoder.decode(envelope) {
        case .failure(let error):
            logger.warning("malformed job", metadata: ["job": "\(error.jobID ?? "?")", "code": "\(error.code)", "detail": "\(error.detail)"])
            await finish(delivery, with: malformed(error, attempts: envelope.previousAttempts, context: context))
        case .success(let job):
            context.job = job
            await process(job, context: context)
        }
    }

    private func process(_ job: Job, context: ResultContext) async {
        let resolved: (entry: CredentialRegistry.Entry, endpoint: APNsEndpoint)
        switch resolve(job) {
        case .failure(let error):
            await finish(context.delivery, with: malformed(error, attempts: job.previousAttempts, context: context))
            return
        case .success(let found):
            resolved = found
        }
        let name = resolved.entry.settings.name
        if let deadline = job.deadline, deadline <= now() {
            await finish(context.delivery, with: complete(.expired(lastError: "deadline passed before sending"), job: job, credential: name, attempts: job.previousAttempts, context: context))
            return
        }
        if let until = gate.pausedUntil(name, at: now()) {
            await finish(context.delivery, with: [postpone(context.delivery, job: job, for: until.timeIntervalSince(now()), reason: "credential \(name) is paused")])
            return
        }
        let outcome: Result<APNsResponse, APNsSendError>
        do {
            outcome = .success(try await sender.send(job.request, credential: resolved.entry.credential, endpoint: resolved.endpoint))
        } catch let error as APNsSendError {
            outcome = .failure(error)
        } catch {
            outcome = .failure(APNsSendError(.protocolError, .unknown, "\(error)"))
        }
        // A try APNs never processed (no stream in time, refused, no connection) is not an attempt.
        let processed = if case .failure(let error) = outcome { error.outcome != .notProcessed } else { true }
        let attempts = job.previousAttempts + (processed ? 1 : 0)
        let deferrals = job.previousDeferrals + (processed ? 0 : 1)
        let verdict = policy.verdict(for: outcome, job: job, attempts: attempts, deferrals: deferrals, now: now())
        if case .credentialRefused(let lastError) = verdict {
            let until = now().addingTimeInterval(credentialBackoff.seconds)
            gate.pause(name, until: until)
            logger.error("APNs refused credential; pausing it", metadata: ["credential": "\(name)", "error": "\(lastError)", "until": "\(until)"])
            await finish(context.delivery, with: [postpone(context.delivery, job: job, for: credentialBackoff.seconds, reason: lastError)])
            return
        }
        await finish(context.delivery, with: complete(verdict, job: job, credential: name, attempts: attempts, deferrals: deferrals, context: context))
    }

    /// The credential and endpoint for `job`: named, or by topic; the job's environment may pick the
    /// other APNs host for a token credential (tokens work in both; certificates do not).
    private func resolve(_ job: Job) -> Result<(entry: CredentialRegistry.Entry, endpoint: APNsEndpoint), JobError> {
        let entry = job.credentialName.map { credentials.entry(named: $0) } ?? credentials.entry(forTopic: job.request.topic)
        guard let entry else {
            let detail = job.credentialName.map { "no credential named \($0)" } ?? "no credential serves topic \(job.request.topic)"
            return .failure(JobError(code: JobError.unknownCredential, detail: detail, jobID: job.id))
        }
        guard let environment = job.environment, environment != entry.environment else { return .success((entry, entry.endpoint)) }
        guard entry.credential.usesTokens else {
            return .failure(JobError(code: "EnvironmentMismatch", detail: "certificate credential \(entry.settings.name) serves \(entry.environment) only", jobID: job.id))
        }
        return .success((entry, endpointOverride ?? APNsEndpoint(environment: environment)))
    }
}

extension AMQPFieldValue {
    /// The value as an integer, when it is one.
    var integerValue: Int64? {
        if case .int(let value) = self { return value }
        return nil
    }
}
