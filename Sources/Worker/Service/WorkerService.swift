public import AMQP
import APNsCore
import CoreMetrics
import Foundation
public import Logging
import NIOConcurrencyHelpers
import NIOCore
import NIOPosix
public import ServiceLifecycle
import Synchronization
public import WorkerConfiguration

/// The worker: consumes jobs, sends them through APNs, publishes every outcome, acks when confirmed.
///
/// It runs as shards (``WorkerShard``), by default one per core: each an event loop with its own
/// broker connection and APNs connections, taking its jobs from delivery to ack on that loop. The
/// shards share what must hold for the process (``SharedJobState``), the credentials' pauses, the
/// metrics, and multicast pacing.
///
/// Unacknowledged deliveries are bounded by the broker's prefetch (``WorkerSection/prefetch``), and the jobs
/// processed at once by ``WorkerSettings/jobConcurrency`` (what APNs can have in flight), both divided
/// among the shards: deliveries beyond it wait in their shard's intake, not yet started. Behind that, the
/// APNs client's streams and bounded waiting line apply back-pressure. On graceful shutdown each shard
/// cancels its consumer first; once every shard's is gone, each hands deliveries that never started back
/// to the queue (to a consumer still open, even another shard's, the broker would deliver them straight
/// back: ``OpenConsumers``); each lets started jobs finish within the shutdown timeout, requeues the
/// rest, and closes.
public final class WorkerService: Service {
    public let settings: WorkerSettings
    public let gate: CredentialGate
    let shards: [WorkerShard]
    let shared: SharedJobState
    let logger: Logger
    let draining = Atomic(false)
    /// The worker's instruments, made once and shared with the gate and the shards.
    let metrics: WorkerMetrics
    /// Called once, when every shard's consumer first started: start-up is over.
    let whenConsuming: @Sendable () -> Void
    /// Shards whose consumer started.
    private let shardsConsuming = Atomic(0)
    /// Keeps the rate limits' worker count current, once every shard consumes (``watchFleetSize()``).
    private let fleetWatch = NIOLockedValueBox<Task<Void, Never>?>(nil)

    /// A worker of ``WorkerSettings/shardCount(cores:)`` shards, each on one of NIO's shared event loops
    /// with a broker connection of its own.
    ///
    /// - Parameter whenConsuming: called once, when every shard's consumer started (the process's owner
    ///   gives back what only start-up needed: ``StartupCode``).
    public convenience init(
        settings: WorkerSettings, credentials: CredentialRegistry, logger: Logger, whenConsuming: @escaping @Sendable () -> Void = {}
    ) throws {
        let loops = MultiThreadedEventLoopGroup.singleton
        // Consecutive `next()` calls go round the loops: each shard gets its own while there are enough.
        let clients = try (0..<settings.shardCount(cores: System.coreCount)).map { _ in
            AMQPClient(options: try settings.amqp.clientOptions(), logger: logger, eventLoop: loops.next())
        }
        self.init(settings: settings, credentials: credentials, amqp: clients, logger: logger, whenConsuming: whenConsuming)
    }

    /// A worker of one shard per client of `amqp`, each shard on its client's event loop.
    public init(
        settings: WorkerSettings, credentials: CredentialRegistry, amqp: [AMQPClient], logger: Logger, whenConsuming: @escaping @Sendable () -> Void = {}
    ) {
        precondition(!amqp.isEmpty, "a worker has at least one shard")
        self.settings = settings
        self.logger = logger
        self.whenConsuming = whenConsuming
        let metrics = WorkerMetrics()
        self.metrics = metrics
        let gate = CredentialGate(metrics: metrics)
        self.gate = gate
        let shared = SharedJobState(settings: settings, credentials: credentials)
        self.shared = shared
        let consumers = OpenConsumers(shards: amqp.count)
        shards = amqp.enumerated().map { index, client in
            WorkerShard(
                ShardShare(index: index, of: amqp.count), of: settings, amqp: client, shared: shared, consumers: consumers, gate: gate, metrics: metrics,
                logger: logger
            )
        }
        metrics.configurationLoaded()
        recordCredentials(credentials.entries)
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

    /// Jobs being processed right now (started, not yet acked or requeued), in every shard.
    public var jobsInFlight: Int { shards.reduce(0) { $0 + $1.starter.inFlight.load(ordering: .relaxed) } }

    /// Sets the gauges that are cheaper to read on a scrape than to keep current on every job.
    public func recordScrapeGauges() {
        // 1, plus every shard's reconnects: each shard's own connection starts at generation 1.
        metrics.connectionGeneration.record(1 + shards.reduce(0) { $0 + max(0, Int($1.amqp.generation) - 1) })
        // Permits move between senders as they start, end, wait for a rate or give way to pacing.
        metrics.multicastInFlight.record(shared.permits.inUse)
        let entries = shared.credentials.entries
        for entry in entries {
            if let rate = shared.rateLimits.perWorkerRate(of: entry.settings.name) { metrics.credential(entry.settings.name, ratePerWorker: rate) }
        }
        let counts = shards.map(\.intake.counts)
        metrics.lane(.urgent, running: counts.reduce(0) { $0 + $1.runningUrgent }, waiting: counts.reduce(0) { $0 + $1.waitingUrgent })
        metrics.lane(.bulk, running: counts.reduce(0) { $0 + $1.runningBulk }, waiting: counts.reduce(0) { $0 + $1.waitingBulk })
        // Every credential, so one that went idle reads 0 rather than its last count.
        guard entries.count > 1 else { return }
        var shares: [String: (running: Int, waiting: Int)] = [:]
        for share in shards.flatMap(\.intake.credentialCounts) {
            let sum = shares[share.credential] ?? (0, 0)
            shares[share.credential] = (sum.running + share.running, sum.waiting + share.waiting)
        }
        for entry in entries {
            let share = shares[entry.settings.name] ?? (0, 0)
            metrics.credential(entry.settings.name, running: share.running, waiting: share.waiting)
        }
    }

    /// Whether this worker should get traffic now: what `/health/ready` reports. Every shard must be
    /// connected and consuming: a shard without its connection holds its share of the jobs back.
    public func readiness() -> Readiness {
        Readiness(
            connected: shards.allSatisfy(\.amqp.isConnected),
            consuming: shards.allSatisfy(\.amqp.isConsuming),
            draining: draining.load(ordering: .relaxed),
            pausedCredentials: gate.pausedCredentials(at: Date())
        )
    }

    /// Runs every shard until a graceful shutdown has drained them all. A shard that fails otherwise
    /// (its broker unreachable for `amqp.startup_timeout`) stops the others, which drain as on a
    /// shutdown; the first such error, or a shard's drain timeout, is rethrown once all have ended.
    public func run() async throws {
        metrics.prefetch.record(settings.worker.prefetch)
        let pacing = settings.worker.multicastPacing ? Task { [shared, metrics] in
            await paceBulkSenders(of: shared.permits, urgent: shared.urgentLatencies) { metrics.multicastBulkLimit.record($0) }
        } : nil
        defer {
            pacing?.cancel()
            fleetWatch.withLockedValue { $0?.cancel() }
        }
        try await withGracefulShutdownHandler {
            try await runShards()
        } onGracefulShutdown: { [self] in
            draining.store(true, ordering: .relaxed)
        }
    }

    private func runShards() async throws {
        try await withThrowingTaskGroup(of: (any Error)?.self) { group in
            for shard in shards {
                group.addTask { [self] in
                    do {
                        try await shard.run { self.shardConsuming() }
                        return nil
                    } catch {
                        return error
                    }
                }
            }
            var failure: (any Error)?
            for try await error in group {
                guard let error, failure == nil else { continue }
                failure = error
                // A drain timeout comes to every shard by its own clock; anything else ends the rest now.
                if !(error is WorkerShard.DrainTimeout) {
                    draining.store(true, ordering: .relaxed)
                    group.cancelAll()
                }
            }
            if let failure { throw failure }
        }
    }

    /// One more shard consumes; once all do, start-up is over.
    private func shardConsuming() {
        guard shardsConsuming.add(1, ordering: .relaxed).newValue == shards.count else { return }
        fleetWatch.withLockedValue { $0 = watchFleetSize() }
        whenConsuming()
    }

    /// Keeps the rate limits' worker count current: `worker.fleet_size` when set, else the consumers of
    /// the first jobs queue over this worker's own (each shard consumes it once), counted every 15
    /// seconds while any credential has a limit. A worker that cannot count keeps the last count.
    private func watchFleetSize() -> Task<Void, Never>? {
        if let size = settings.worker.fleetSize {
            shared.rateLimits.setWorkers(Double(size))
            return nil
        }
        return Task { [amqp = shards[0].amqp, shared, mine = shards.count, queue = settings.topology.jobsQueue] in
            while !Task.isCancelled {
                if !shared.rateLimits.isEmpty, let counts = try? await amqp.counts(ofQueue: queue) {
                    shared.rateLimits.setWorkers(Double(counts.consumers) / Double(mine))
                }
                try? await Task.sleep(for: .seconds(15))
            }
        }
    }
}
