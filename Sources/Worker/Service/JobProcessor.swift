public import AMQP
import CoreMetrics
import Synchronization
import APNsClient
import APNsCore
public import Foundation
public import Logging
public import WorkerConfiguration

/// Takes one delivery from decoding to ack: decode, resolve its credential, admit it, send, decide;
/// what the verdict publishes is ``PublicationPlanner``'s to say, and ``JobSettler`` publishes it and
/// acks only once the broker confirmed every message.
///
/// Thousands of jobs wait for APNs at once. A single-device job waits as nothing but its
/// ``PendingSend`` in the callback its request carries (``begin(_:settled:)``); the jobs that wait on
/// a task (multicast, channel, rate-limited, redelivered) keep their async frames thin: decoding,
/// deciding and building messages happen in synchronous functions whose temporaries live on the
/// thread's stack for microseconds instead.
public final class JobProcessor: Sendable {
    let broker: any JobBroker
    let sender: any NotificationSender
    /// What this processor shares with the other shards' (see ``SharedJobState``).
    let shared: SharedJobState
    /// The credentials in force; a reload (SIGHUP) swaps them while jobs run.
    var credentials: CredentialRegistry { shared.credentials }
    let gate: CredentialGate
    /// What each verdict publishes: the decision core, synchronous and free of I/O.
    let planner: PublicationPlanner
    /// What becomes of those publications at the broker, and the ack that waits for them.
    let settler: JobSettler
    /// The endpoint overriding Apple's for every environment (tests point it at the mock), if any.
    let endpointOverride: APNsEndpoint?
    /// Where channel-management requests and broadcasts go, when configured (else see ``channelEndpoint(for:in:)``).
    let channelEndpointSetting: APNsEndpoint?
    let broadcastEndpointSetting: APNsEndpoint?
    let workerName: String
    let logger: Logger
    let now: @Sendable () -> Date
    let metrics: WorkerMetrics
    var answered: AnsweredOutcomes { shared.answered }
    var atAPNs: JobsAtAPNs { shared.atAPNs }
    var permits: SendPermits { shared.permits }
    /// Senders one multicast job may run at once, each a request in flight: a quarter of the permits,
    /// so a few large jobs share them rather than the first taking all.
    let multicastSenders: Int
    var urgentLatencies: UrgentLatencies { shared.urgentLatencies }
    var rateLimits: RateLimits { shared.rateLimits }
    /// Set when the worker starts draining: multicast jobs stop sending and set their remaining
    /// tokens aside for a retry copy, so a shutdown does not wait for a 10,000-token job.
    let draining = Atomic(false)

    public convenience init(
        broker: any JobBroker,
        sender: any NotificationSender,
        credentials: CredentialRegistry,
        settings: WorkerSettings,
        gate: CredentialGate,
        logger: Logger,
        now: @escaping @Sendable () -> Date = { Date() },
        onMissingExchange: @escaping @Sendable () async -> Void = {}
    ) {
        self.init(
            broker: broker, sender: sender, shared: SharedJobState(settings: settings, credentials: credentials), settings: settings, gate: gate,
            logger: logger, metrics: WorkerMetrics(), now: now, onMissingExchange: onMissingExchange
        )
    }

    /// A processor of one shard, configured by its `settings`, reporting through `metrics`, the
    /// worker's one set of instruments, and sharing `shared` with the other shards.
    init(
        broker: any JobBroker,
        sender: any NotificationSender,
        shared: SharedJobState,
        settings: WorkerSettings,
        gate: CredentialGate,
        logger: Logger,
        metrics: WorkerMetrics,
        now: @escaping @Sendable () -> Date = { Date() },
        unroutableBackoff: Duration = JobSettler.defaultUnroutableBackoff,
        nackRetry: NackRetry = .standard,
        onMissingExchange: @escaping @Sendable () async -> Void = {}
    ) {
        self.metrics = metrics
        self.broker = broker
        self.sender = sender
        self.shared = shared
        multicastSenders = max(1, shared.permits.capacity / 4)
        self.gate = gate
        planner = PublicationPlanner(
            messages: OutgoingMessages(topology: Topology(settings: settings.topology)),
            policy: RetryPolicy(tiers: settings.topology.retryTiers, maxAttempts: settings.worker.maxAttempts),
            credentialBackoff: settings.worker.credentialBackoff, logger: logger, now: now
        )
        settler = JobSettler(
            broker: broker, metrics: metrics, logger: logger, unroutableBackoff: unroutableBackoff, nackRetry: nackRetry, onMissingExchange: onMissingExchange
        )
        endpointOverride = settings.apns.endpoint
        channelEndpointSetting = settings.apns.channelEndpoint
        broadcastEndpointSetting = settings.apns.broadcastEndpoint
        workerName = settings.worker.name
        self.logger = logger
        self.now = now
    }

    /// From now on multicast jobs send no more tokens (see ``draining``).
    public func beginDraining() {
        draining.store(true, ordering: .relaxed)
    }

    /// Processes one delivery and returns once it is acked or given back, cancelled or not; never throws.
    public func process(_ delivery: AMQPDelivery) async {
        let settled = OneTimeSignal()
        await process(delivery) { settled.fire() }
        await settled.wait()
    }

    /// Processes one delivery; never throws: every outcome ends in an ack or a requeue, after which
    /// `settled` runs, once (for nearly every job on the broker client's event loop:
    /// ``JobSettler/finish(_:with:then:)``). Returns once nothing is left for a task to wait for.
    public func process(_ delivery: AMQPDelivery, settled: @escaping @Sendable () -> Void) async {
        guard let step = begin(delivery, settled: settled) else { return }
        await proceed(step, of: delivery, settled: settled)
    }

    /// Takes `delivery` as far as it goes without a task, which for a single-device job is the whole
    /// way: decoded here, sent, and concluded and handed to the broker where APNs' answer arrives (the
    /// connection's event loop), with no task, continuation or hop back. Returns the step left when
    /// the job must wait for something other than APNs' answer, for ``proceed(_:of:settled:)`` on a
    /// task: a redelivery for its first delivery's outcome, a rate limit, a multicast job's senders,
    /// a channel request.
    func begin(_ delivery: AMQPDelivery, settled: @escaping @Sendable () -> Void) -> JobStep? {
        // Its connection closed while it waited for a slot: the broker has requeued it already, and
        // processing it would push it twice and publish a duplicate result.
        guard isCurrent(delivery, settled: settled) else { return nil }
        let step = start(delivery)
        switch step {
        case .publish(let publications), .republish(let publications):
            settler.finish(delivery, with: publications) { _ in settled() }
            return nil
        case .send(let pending) where pending.job.multicast == nil && rateLimits.isEmpty && !Self.mayRepeat(delivery):
            atAPNs.begin(pending.job.id)
            send(pending, settled: settled)
            return nil
        case .send, .channel:
            return step
        }
    }

    /// The rest of a job ``begin(_:settled:)`` could not finish, on the job's own task.
    func proceed(_ step: JobStep, of delivery: AMQPDelivery, settled: @escaping @Sendable () -> Void) async {
        // Checked again: the connection can close while the step waits for its task, and the job's
        // redelivery, finding nothing of it at APNs yet, would push as well.
        guard isCurrent(delivery, settled: settled) else { return }
        var step = step
        if case .send(let pending) = step, Self.mayRepeat(delivery) {
            step = await afterEarlierDelivery(pending)
        } else if case .channel(let pending) = step, Self.mayRepeat(delivery) {
            step = await afterEarlierDelivery(pending)
        }
        switch step {
        case .publish(let publications), .republish(let publications):
            // A republish is of an outcome still remembered: this delivery's ack can be lost as the
            // first one's was.
            settler.finish(delivery, with: publications) { _ in settled() }
        case .channel(let pending):
            atAPNs.begin(pending.job.id)
            let publications = await send(pending)
            answered.remember(pending.outcomeKey, publications)
            settler.finish(delivery, with: publications) { [atAPNs, id = pending.job.id] _ in
                atAPNs.end(id)
                settled()
            }
        case .send(let pending):
            atAPNs.begin(pending.job.id)
            if let multicast = pending.job.multicast {
                handOver(await sendMulticast(pending, multicast), of: pending, settled: settled)
            } else if !rateLimits.isEmpty, !(await waitForRate(pending.credentialName, topic: pending.job.request.topic, urgent: pending.context.isUrgent)) {
                handOver(conclude(pending, outcome: .failure(Self.rateWaitCancelled)), of: pending, settled: settled)
            } else {
                send(pending, settled: settled)
            }
        }
    }

    /// Whether `delivery` came on the broker connection open now. If not, the broker has requeued it
    /// when its connection closed: it is dropped (counted as superseded) and settled.
    private func isCurrent(_ delivery: AMQPDelivery, settled: @Sendable () -> Void) -> Bool {
        guard delivery.generation != broker.generation else { return true }
        metrics.superseded.increment()
        settled()
        return false
    }

    /// A redelivered job (or a retry copy) this process may still have at APNs from its first delivery
    /// (the broker requeues everything unacked when a connection or channel closes): waits until that delivery's
    /// outcome is settled, then publishes the outcome it left, if any, instead of pushing again.
    ///
    /// The outcome is looked up even when nothing was left to wait for: ``start(_:)`` looked before,
    /// and the first delivery can be answered and settled between the two (seen as 8 to 15 double
    /// pushes in the `close-connection` fault scenario on a loaded machine).
    @inline(never)
    private func afterEarlierDelivery(_ pending: PendingSend) async -> JobStep {
        await atAPNs.waitUntilSettled(pending.job.id)
        return rememberedOutcome(pending.outcomeKey, jobID: pending.job.id, delivery: pending.context.delivery) ?? .send(pending)
    }

    /// The same for a channel job: a create or a broadcast sent twice makes two channels or two pushes.
    @inline(never)
    private func afterEarlierDelivery(_ pending: PendingChannelRequest) async -> JobStep {
        await atAPNs.waitUntilSettled(pending.job.id)
        return rememberedOutcome(pending.outcomeKey, jobID: pending.job.id, delivery: pending.context.delivery) ?? .channel(pending)
    }

    /// Sends a single-device job (its delivery counted in ``atAPNs``); APNs' answer is concluded and
    /// handed to the broker where it arrives.
    private func send(_ pending: PendingSend, settled: @escaping @Sendable () -> Void) {
        let request = pending.job.request
        sender.send(request, credential: pending.credential, endpoint: pending.endpoint, urgent: pending.context.isUrgent) { [self] outcome in
            handOver(conclude(pending, outcome: outcome), of: pending, settled: settled)
        }
    }

    /// Hands a job's publications to the broker with its ack. APNs has answered: whatever becomes
    /// of the publications or the ack, a redelivery must not push again.
    private func handOver(_ publications: [Publication], of pending: PendingSend, settled: @escaping @Sendable () -> Void) {
        answered.remember(pending.outcomeKey, publications)
        // An urgent single-device job's time from its start to its ack is what paces bulk multicast.
        let received = pending.context.isUrgent && pending.job.multicast == nil ? pending.context.received : nil
        settler.finish(pending.context.delivery, with: publications) { [atAPNs, urgentLatencies, now, id = pending.job.id] _ in
            atAPNs.end(id)
            if let received { urgentLatencies.record(.seconds(now().timeIntervalSince(received))) }
            settled()
        }
    }

    /// Waits until `credential`'s and `topic`'s rate limits let one more request go (an urgent one
    /// goes at once). False when the wait was cancelled (the shutdown timeout): the request must not
    /// go then, ahead of its moment, and nothing was sent. `holdingPermit`: the caller is a bulk
    /// multicast sender, which gives its permit back while it waits and takes one again after.
    func waitForRate(_ credential: String, topic: String, urgent: Bool, holdingPermit: Bool = false) async -> Bool {
        let topicWait = rateLimits.reserveTopic(topic, of: credential, urgent: urgent, now: .now)
        guard await sleep(topicWait, credential: credential, holdingPermit: holdingPermit) else { return false }
        return await sleep(rateLimits.reserveCredential(credential, urgent: urgent, now: .now), credential: credential, holdingPermit: holdingPermit)
    }

    /// A rate wait, counted when there is one; false when cancelled.
    ///
    /// A multicast sender's permit stands for a request in flight. One that only waits for its moment
    /// lends it meanwhile: otherwise a rate-limited team's large jobs would hold every permit asleep
    /// while other teams' multicast jobs waited for one. Taken back under a key of the wait's own, so
    /// a withdrawal of the job's waits (its last token taken) cannot cancel it: this sender holds a token.
    private func sleep(_ wait: Duration, credential: String, holdingPermit: Bool) async -> Bool {
        guard wait > .zero else { return true }
        metrics.rateLimited(credential)
        if holdingPermit { permits.release(urgent: false) }
        let slept = (try? await Task.sleep(for: wait)) != nil
        if holdingPermit {
            let key = PermitLoan()
            let taken = await permits.acquire(for: ObjectIdentifier(key), while: { true })
            withExtendedLifetime(key) {}
            assert(taken, "only its own key withdraws this wait, and nothing withdraws it")
        }
        return slept
    }

    /// The key of a permit taken back after a rate wait (``sleep(_:credential:holdingPermit:)``).
    private final class PermitLoan: Sendable {}

    /// A send given up while it waited for its rate limit: not processed, so no attempt is counted.
    static let rateWaitCancelled = APNsSendError(.shutdown, .notProcessed, "cancelled while waiting for the credential's rate limit")

    /// `error` as the client's error type (it throws nothing else, but the protocol cannot say so).
    @inline(never)
    static func sendError(_ error: any Error) -> APNsSendError {
        error as? APNsSendError ?? APNsSendError(.protocolError, .unknown, "\(error)")
    }
}

extension Result where Success == APNsResponse, Failure == APNsSendError {
    /// APNs' answer to `send`, or why there is none, as the client's error type.
    init(sending send: () async throws -> APNsResponse) async {
        do {
            self = .success(try await send())
        } catch {
            self = .failure(JobProcessor.sendError(error))
        }
    }
}
