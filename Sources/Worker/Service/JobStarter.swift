import AMQP
import CoreMetrics
import Synchronization

/// Starts jobs as the intake lets them, on the thread that brought deliveries or freed a slot: the
/// AMQP client's event loop, nearly always. A single-device job goes all the way to its send right
/// there (``JobProcessor/begin(_:settled:)``); a job that must wait for something else is handed to a
/// task through ``slowJobs``.
final class JobStarter: Sendable {
    /// A job ``JobProcessor/begin(_:settled:)`` left for a task.
    struct SlowJob: Sendable {
        let step: JobStep
        let delivery: AMQPDelivery
        let settled: @Sendable () -> Void
    }

    let intake: JobIntake
    let processor: JobProcessor
    let metrics: WorkerMetrics
    /// Jobs started and not yet settled.
    let inFlight = Atomic(0)
    /// The jobs that need a task, until nothing more can start (``JobIntake/hasEnded``).
    let slowJobs: AsyncStream<SlowJob>
    private let slowInput: AsyncStream<SlowJob>.Continuation
    /// Calls of ``startWaiting()`` not yet served (see there).
    private let passesOwed = Atomic(0)

    init(intake: JobIntake, processor: JobProcessor, metrics: WorkerMetrics) {
        self.intake = intake
        self.processor = processor
        self.metrics = metrics
        (slowJobs, slowInput) = AsyncStream.makeStream(of: SlowJob.self)
    }

    /// Deliveries the consumer read: they wait in the intake, and what may start starts now.
    func arrived(_ batch: [AMQPDelivery]) {
        intake.arrived(batch)
        startWaiting()
    }

    /// Starts every delivery the intake lets start now; once nothing more can start, ends ``slowJobs``.
    ///
    /// One thread starts at a time. A call that finds another thread at it, or that comes from inside a
    /// start (a delivery whose connection is gone settles at once, and its settling calls this), owes
    /// that thread one more pass instead of nesting: after a reconnect, hundreds of such deliveries
    /// would otherwise nest as deep on one stack.
    func startWaiting() {
        guard passesOwed.wrappingAdd(1, ordering: .acquiringAndReleasing).oldValue == 0 else { return }
        var owed = 1
        repeat {
            while let started = intake.take() { start(started) }
            // Decided inside the pass, where no start can run beside it; once true it stays true.
            if intake.hasEnded { slowInput.finish() }
            owed = passesOwed.subtract(owed, ordering: .acquiringAndReleasing).newValue
        } while owed > 0
    }

    private func start(_ started: LaneQueue.Started) {
        metrics.inFlight.record(inFlight.add(1, ordering: .relaxed).newValue)
        // Its slot is freed once the job is settled at the broker, where that happens.
        let settled: @Sendable () -> Void = { [self] in
            intake.finished(started)
            metrics.inFlight.record(inFlight.subtract(1, ordering: .relaxed).newValue)
            startWaiting()
        }
        guard let step = processor.begin(started.delivery, settled: settled) else { return }
        slowInput.yield(SlowJob(step: step, delivery: started.delivery, settled: settled))
    }
}
