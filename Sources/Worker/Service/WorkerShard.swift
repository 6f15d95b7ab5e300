import AMQP
import APNsClient
import APNsCore
import Foundation
import Logging
import NIOCore
import ServiceLifecycle
import Synchronization
import WorkerConfiguration

/// One shard of the worker: an event loop with its own broker connection, its own APNs connections
/// and its share of the worker's windows and job slots (``WorkerSettings/shard(_:)``).
///
/// A single-device job never leaves its shard's loop: it is delivered, decoded and sent there, APNs
/// answers there, and its result, its publication's confirm and its ack happen there, with no hop to
/// another thread. Jobs that wait for something else (a rate limit, a multicast job's senders, a
/// channel request, a redelivery's first outcome) run on tasks. What must hold across shards is in
/// ``SharedJobState``.
final class WorkerShard: Sendable {
    let share: ShardShare
    /// This shard's settings: its share of the windows, the rest the worker's.
    let settings: WorkerSettings
    let amqp: AMQPClient
    let apns: APNsClient
    let processor: JobProcessor
    let intake: JobIntake
    let starter: JobStarter
    /// Which shards of the worker still consume: a draining shard hands deliveries back once none does.
    let consumers: OpenConsumers
    let logger: Logger

    /// Shard `share` of a worker configured by `whole`, on `amqp`'s event loop (its APNs connections too).
    init(
        _ share: ShardShare, of whole: WorkerSettings, amqp: AMQPClient, shared: SharedJobState, consumers: OpenConsumers, gate: CredentialGate,
        metrics: WorkerMetrics, logger: Logger
    ) {
        self.share = share
        self.consumers = consumers
        settings = whole.shard(share)
        self.amqp = amqp
        var logger = logger
        if share.count > 1 { logger[metadataKey: "shard"] = "\(share.index)" }
        self.logger = logger
        var client = settings.clientConfiguration
        client.connectionShare = share
        apns = APNsClient(configuration: client, eventLoopGroup: amqp.eventLoop, logger: logger)
        var onMissingExchange: @Sendable () async -> Void = {}
        if settings.worker.declareTopology {
            let repair = TopologyRepair(amqp: amqp, topology: Topology(settings: settings.topology), logger: logger)
            onMissingExchange = { await repair.redeclare() }
        }
        processor = JobProcessor(
            broker: amqp, sender: apns, shared: shared, settings: settings, gate: gate, logger: logger, metrics: metrics,
            onMissingExchange: onMissingExchange
        )
        intake = JobIntake(limit: settings.jobConcurrency, reserved: settings.urgentReservedJobs, place: Self.placement(settings: settings, processor: processor))
        starter = JobStarter(intake: intake, processor: processor, metrics: metrics)
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

    /// Connects, declares the topology (when the worker does), consumes until a graceful shutdown, and
    /// drains: see ``WorkerService``. `consuming` is called once the consumer started.
    func run(consuming: @escaping @Sendable () -> Void) async throws {
        // However the run ends (start-up failed or was cut short, or the drain is over), this shard
        // consumes no more; when its consumer's end already said so, saying it again changes nothing.
        defer { consumers.consumerGone(shard: share.index) }
        let queues = consumedQueues
        guard let inputEnd = try await startConsuming(queues) else {
            logger.notice("stopped before consuming")
            apns.shutdown()
            return
        }
        logger.notice("worker consuming", metadata: [
            "queues": "\(queues.map { "\($0.name) (prefetch \($0.prefetch))" }.joined(separator: ", "))",
            "concurrency": "\(settings.jobConcurrency)", "reserved_for_urgent": "\(settings.urgentReservedJobs)", "worker": "\(settings.worker.name)",
        ])
        consuming()
        do {
            try await withGracefulShutdownHandler {
                try await process(until: inputEnd)
            } onGracefulShutdown: { [self] in
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

    /// Connects (a fleet may start before its broker: it keeps trying for amqp.startup_timeout),
    /// declares the topology when the worker does, and starts consuming `queues`; returns the
    /// consumer's end (heard by process(until:)), or nil when a graceful shutdown came first. While it
    /// connects and declares, a shutdown closes the client, which ends whichever step is under way: a
    /// SIGTERM during start-up is a clean exit, not an error, whether it comes while the broker is
    /// unreachable or just after it answered. One during the consume call itself is heard as a drain,
    /// once that call returns.
    private func startConsuming(_ queues: [AMQPConsumedQueue]) async throws -> AsyncStream<Never>? {
        do {
            try await withGracefulShutdownHandler {
                try await amqp.connect(retryingFor: settings.amqp.startupTimeout)
                if settings.worker.declareTopology {
                    let topology = Topology(settings: settings.topology)
                    for warning in try await topology.declare(on: amqp) where share.index == 0 { logger.warning("\(warning)") }
                }
            } onGracefulShutdown: { [amqp] in
                Task { await amqp.close() }
            }
        } catch where Task.isShuttingDownGracefully {
            // Ended by the shutdown's close: stopped just below.
        }
        // Whether or not the shutdown cut a step short, it has a close on its way: do not consume into
        // it. One that comes from here on is process(until:)'s to handle, as a drain.
        guard !Task.isShuttingDownGracefully else {
            await amqp.close()
            return nil
        }
        // The consumer's end (draining: once the broker confirmed the cancel).
        let (inputEnd, inputEnded) = AsyncStream.makeStream(of: Never.self)
        // Deliveries start on the client's loop as they arrive (JobStarter).
        try await amqp.consume(queues, onLoop: { [starter] batch in starter.arrived(batch) }, finished: { [self] in
            // Draining: deliveries that never started go back to the queue once the broker confirmed
            // the cancel of every shard's consumer. Before, it would deliver a requeued job straight
            // back to a consumer of this worker, each time counted toward the queue's delivery limit.
            let handBack: @Sendable () -> Void = { [amqp, intake, starter] in
                for delivery in intake.inputFinished() { amqp.onLoop.reject(delivery, requeue: true) }
                starter.startWaiting()
                inputEnded.finish()
            }
            guard intake.isClosed else {
                consumers.consumerGone(shard: share.index)
                return handBack()
            }
            // The last shard's consumer may go on another loop; each shard answers on its own.
            consumers.consumerGone(shard: share.index) { [amqp] in amqp.eventLoop.execute(handBack) }
        })
        return inputEnd
    }

    /// Whether every started job was settled by `deadline`. Polled: most jobs have no task to await.
    private func jobsSettle(by deadline: ContinuousClock.Instant) async throws -> Bool {
        while starter.inFlight.load(ordering: .relaxed) > 0 {
            guard ContinuousClock.now < deadline else { return false }
            try await Task.sleep(for: .milliseconds(50))
        }
        return true
    }

    /// The queues this shard takes jobs from: the urgent lane's with its own prefetch, then the bulk
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
    /// ``run(consuming:)`` to end the jobs without a task. Nothing unfinished is lost: none of it was
    /// acked, and closing the connection gives it back to the queue.
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
