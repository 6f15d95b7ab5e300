public import AMQP
public import APNsClient
import CoreMetrics
import Foundation
public import Logging
public import ServiceLifecycle
import Synchronization
public import WorkerConfiguration

/// The worker: consumes jobs, sends them through APNs, publishes every outcome, acks when confirmed.
///
/// Unacked deliveries are bounded by the broker's prefetch (``WorkerSection/prefetch``), and the jobs
/// processed at once by ``WorkerSettings/jobConcurrency`` (what APNs can have in flight): deliveries
/// beyond it wait in the intake, not yet started. Behind that, the APNs client's streams and bounded
/// waiting line apply back-pressure. On graceful shutdown it cancels the consumer first, then hands
/// deliveries that never started back to the queue (to a consumer still open the broker would deliver
/// them straight back), lets started jobs finish within the shutdown timeout, requeues the rest, and closes.
public final class WorkerService: Service {
    public let settings: WorkerSettings
    public let amqp: AMQPClient
    public let apns: APNsClient
    public let gate: CredentialGate
    let processor: JobProcessor
    let intake: JobIntake
    let starter: JobStarter
    let logger: Logger
    let draining = Atomic(false)
    /// The worker's instruments, made once and shared with the gate and the processor.
    let metrics = WorkerMetrics()
    /// Called once, when the consumer first started: start-up is over.
    let whenConsuming: @Sendable () -> Void

    /// - Parameter whenConsuming: called once, when the consumer first started (the process's owner
    ///   gives back what only start-up needed: ``StartupCode``).
    public init(
        settings: WorkerSettings, credentials: CredentialRegistry, amqp: AMQPClient, logger: Logger, whenConsuming: @escaping @Sendable () -> Void = {}
    ) {
        self.settings = settings
        self.amqp = amqp
        self.logger = logger
        self.whenConsuming = whenConsuming
        apns = APNsClient(configuration: settings.clientConfiguration, logger: logger)
        gate = CredentialGate(metrics: metrics)
        var onMissingExchange: @Sendable () async -> Void = {}
        if settings.worker.declareTopology {
            let repair = TopologyRepair(amqp: amqp, topology: Topology(settings: settings.topology), logger: logger)
            onMissingExchange = { await repair.redeclare() }
        }
        processor = JobProcessor(
            broker: amqp, sender: apns, credentials: credentials, settings: settings, gate: gate, logger: logger, metrics: metrics,
            onMissingExchange: onMissingExchange
        )
        intake = JobIntake(limit: settings.jobConcurrency, reserved: settings.urgentReservedJobs, place: Self.placement(settings: settings, processor: processor))
        starter = JobStarter(intake: intake, processor: processor, metrics: metrics)
        metrics.configurationLoaded()
        recordCredentials(credentials.entries)
    }

    /// Where the intake puts a delivery: its lane by the queue it came from, and, when the worker has
    /// more than one credential, the credential it will be sent with (read from it: ``CredentialPeek``)
    /// with that credential's weight, as the configuration in force (reloads included) says.
    static func placement(settings: WorkerSettings, processor: JobProcessor) -> @Sendable (AMQPDelivery) -> JobIntake.Placement {
        let topology = settings.topology
        return { delivery in
            var placement = JobIntake.Placement(lane: topology.lane(ofQueue: delivery.queue))
            let registry = processor.credentials
            // One credential: nothing to share, and no reading of the body.
            guard registry.entries.count > 1, let entry = CredentialPeek.entry(for: delivery.message, in: registry) else { return placement }
            placement.credential = entry.settings.name
            placement.weight = entry.settings.weight
            return placement
        }
    }

    /// Starts each new credential's series (a paused gauge at 0, so an alert sees it before its first
    /// pause) and sets each certificate credential's expiry gauge, warning of those expiring soon.
    func recordCredentials(_ entries: [CredentialRegistry.Entry]) {
        for entry in entries {
            metrics.credential(entry.settings.name, paused: false)
            guard let notAfter = entry.certificateNotAfter else { continue }
            metrics.credential(entry.settings.name, certificateNotAfter: notAfter)
            let days = notAfter.timeIntervalSinceNow / 86_400
            if days < ConfigurationCheck.certificateWarningWindow / 86_400 {
                logger.warning("certificate credential expires soon", metadata: [
                    "credential": "\(entry.settings.name)", "not_after": "\(notAfter)", "days_left": "\(Int(days.rounded(.down)))",
                ])
            }
        }
    }

    /// Jobs being processed right now (started, not yet acked or requeued).
    public var jobsInFlight: Int { starter.inFlight.load(ordering: .relaxed) }

    /// Sets the gauges that are cheaper to read on a scrape than to keep current on every job.
    public func recordScrapeGauges() {
        metrics.connectionGeneration.record(Int(amqp.generation))
        // Permits move between senders as they start, end, wait for a rate or give way to pacing.
        metrics.multicastInFlight.record(processor.permits.inUse)
        let entries = processor.credentials.entries
        for entry in entries {
            if let rate = processor.rateLimits.perWorkerRate(of: entry.settings.name) { metrics.credential(entry.settings.name, ratePerWorker: rate) }
        }
        let counts = intake.counts
        metrics.lane(.urgent, running: counts.runningUrgent, waiting: counts.waitingUrgent)
        metrics.lane(.bulk, running: counts.runningBulk, waiting: counts.waitingBulk)
        // Every credential, so one that went idle reads 0 rather than its last count.
        guard entries.count > 1 else { return }
        var shares: [String: (running: Int, waiting: Int)] = [:]
        for share in intake.credentialCounts { shares[share.credential] = (share.running, share.waiting) }
        for entry in entries {
            let share = shares[entry.settings.name] ?? (0, 0)
            metrics.credential(entry.settings.name, running: share.running, waiting: share.waiting)
        }
    }

    /// Whether this worker should get traffic now: what `/health/ready` reports.
    public func readiness() -> Readiness {
        Readiness(
            connected: amqp.isConnected,
            consuming: amqp.isConsuming,
            draining: draining.load(ordering: .relaxed),
            pausedCredentials: gate.pausedCredentials(at: Date())
        )
    }

    public func run() async throws {
        // A fleet may start before its broker: keep trying for amqp.startup_timeout; SIGTERM meanwhile
        // ends the wait (closing the client) and the worker exits without having consumed anything.
        do {
            try await withGracefulShutdownHandler {
                try await amqp.connect(retryingFor: settings.amqp.startupTimeout)
            } onGracefulShutdown: { [amqp] in
                Task { await amqp.close() }
            }
        } catch where Task.isShuttingDownGracefully {
            logger.notice("stopped before the broker could be reached")
            apns.shutdown()
            return
        }
        if settings.worker.declareTopology {
            let topology = Topology(settings: settings.topology)
            for warning in try await topology.declare(on: amqp) { logger.warning("\(warning)") }
        }
        let queues = consumedQueues
        // The consumer's end (draining: once the broker confirmed the cancel), heard by process(_:).
        let (inputEnd, inputEnded) = AsyncStream.makeStream(of: Never.self)
        // Deliveries start on the client's loop as they arrive (JobStarter).
        try await amqp.consume(queues, onLoop: { [starter] batch in starter.arrived(batch) }, finished: { [self] in
            // Draining: deliveries that never started go back to the queue now that the broker
            // confirmed the cancel. Before, it would deliver a requeued job straight back to this
            // consumer, each time counted toward the queue's delivery limit.
            for delivery in intake.inputFinished() { amqp.onLoop.reject(delivery, requeue: true) }
            starter.startWaiting()
            inputEnded.finish()
        })
        metrics.prefetch.record(settings.worker.prefetch)
        logger.notice("worker consuming", metadata: [
            "queues": "\(queues.map { "\($0.name) (prefetch \($0.prefetch))" }.joined(separator: ", "))",
            "concurrency": "\(settings.jobConcurrency)", "reserved_for_urgent": "\(settings.urgentReservedJobs)", "worker": "\(settings.worker.name)",
        ])
        whenConsuming()
        let fleetWatch = watchFleetSize()
        defer { fleetWatch?.cancel() }
        let pacing = settings.worker.multicastPacing ? Task { [processor, metrics] in
            await paceBulkSenders(of: processor.permits, urgent: processor.urgentLatencies) { metrics.multicastBulkLimit.record($0) }
        } : nil
        defer { pacing?.cancel() }
        do {
            try await withGracefulShutdownHandler {
                try await process(until: inputEnd)
            } onGracefulShutdown: { [self] in
                draining.store(true, ordering: .relaxed)
                processor.beginDraining()
                intake.close()
                starter.startWaiting()
                // Once the broker confirms the cancel, the consumer's `finished` hands back what waits.
                Task { [amqp, logger] in
                    logger.notice("draining: cancelling the consumer")
                    await amqp.cancelConsuming()
                }
            }
        } catch let timeout as DrainTimeout {
            // Single-device jobs at APNs have no task to cancel. The pools' shutdown fails those still
            // waiting for a stream (unprocessed: a retry copy, no attempt used); those on a stream end
            // within the request timeout, as they did when their tasks could not be cancelled there
            // either. Each hands its messages to the broker while the connection is still open; closing
            // then waits for the last confirms (up to the client's close timeout) and writes their acks,
            // so that a result the broker stored is not redelivered and pushed again.
            apns.shutdown()
            _ = try? await jobsSettle(by: .now + settings.apns.requestTimeout + .seconds(1))
            await amqp.close()
            throw timeout
        }
        logger.notice("worker drained; closing")
        await amqp.close()
        apns.shutdown()
    }

    /// Whether every started job was settled by `deadline`. Polled: most jobs have no task to await.
    private func jobsSettle(by deadline: ContinuousClock.Instant) async throws -> Bool {
        while starter.inFlight.load(ordering: .relaxed) > 0 {
            guard ContinuousClock.now < deadline else { return false }
            try await Task.sleep(for: .milliseconds(50))
        }
        return true
    }

    /// Keeps the rate limits' worker count current: `worker.fleet_size` when set, else the consumers of
    /// the first jobs queue (every worker consumes it once), counted every 15 seconds while any
    /// credential has a limit. A worker that cannot count keeps the last count.
    private func watchFleetSize() -> Task<Void, Never>? {
        if let size = settings.worker.fleetSize {
            processor.rateLimits.setWorkers(size)
            return nil
        }
        return Task { [amqp, processor, queue = settings.topology.jobsQueue] in
            while !Task.isCancelled {
                if !processor.rateLimits.isEmpty, let counts = try? await amqp.counts(ofQueue: queue) {
                    processor.rateLimits.setWorkers(counts.consumers)
                }
                try? await Task.sleep(for: .seconds(15))
            }
        }
    }

    /// The queues this worker takes jobs from: the urgent lane's with its own prefetch, then the bulk
    /// lane's (partitions share `worker.prefetch`), then each team lane's with its own.
    var consumedQueues: [AMQPConsumedQueue] {
        let topology = settings.topology
        var queues = AMQPConsumedQueue.equalShares(of: UInt16(settings.worker.prefetch), among: topology.jobsQueueNames)
        if let urgent = topology.urgentQueue { queues.insert(AMQPConsumedQueue(name: urgent, prefetch: UInt16(settings.worker.urgentPrefetch)), at: 0) }
        queues += topology.teamLanes.map { AMQPConsumedQueue(name: $0.queue, prefetch: UInt16(settings.prefetch(of: $0))) }
        return queues
    }

    /// Runs the jobs ``starter`` hands to tasks, until nothing more can start (draining, or the
    /// consumer gone and nothing waiting); then waits for the consumer's end (`inputEnd`) and for
    /// in-flight jobs, up to the shutdown timeout. Past it, it cancels the tasks of the jobs that have
    /// one (a wait for a stream or for a rate limit ends unprocessed) and throws ``DrainTimeout``, for
    /// ``run()`` to end the jobs without a task. Nothing unfinished is lost: none of it was acked, and
    /// closing the connection gives it back to the queue.
    private func process(until inputEnd: AsyncStream<Never>) async throws {
        // A cancelled run is taken as draining: nothing more starts.
        try await withTaskCancellationHandler {
            try await runJobs(until: inputEnd)
        } onCancel: { [intake, starter] in
            intake.close()
            starter.startWaiting()
        }
    }

    private func runJobs(until inputEnd: AsyncStream<Never>) async throws {
        try await withThrowingDiscardingTaskGroup { group in
            for await job in starter.slowJobs {
                group.addTask { [processor] in
                    await processor.proceed(job.step, of: job.delivery, settled: job.settled)
                }
            }
            let deadline = ContinuousClock.now + settings.worker.shutdownTimeout
            group.addTask { [self] in
                guard try await jobsSettle(by: deadline) else {
                    logger.warning("shutdown timeout reached; requeueing unfinished jobs", metadata: ["in-flight": "\(starter.inFlight.load(ordering: .relaxed))"])
                    throw DrainTimeout()
                }
            }
            // Ends when the consumer does, or when the timeout above cancels the group.
            for await _ in inputEnd {}
        }
    }

    struct DrainTimeout: Error {}
}
