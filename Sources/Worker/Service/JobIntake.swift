import AMQP
import NIOConcurrencyHelpers
import WorkerConfiguration

/// The deliveries waiting to start and the job slots they start in, shared by the task that reads the
/// broker's stream (``arrived(_:)``), the intake loop (``next()``) and the jobs (``finished(_:)``).
///
/// Deliveries beyond the slots stay plain values here (bounded by the lanes' prefetch) instead of each
/// holding a task, with its async frames, while it waits for an APNs stream. Which one starts next is
/// ``LaneQueue``'s decision: urgent first, bulk never in the reserved slots, and each credential its
/// weighted share while others wait.
///
/// One caller waits at a time: the intake loop.
final class JobIntake: Sendable {
    private struct State {
        var lanes: LaneQueue
        /// The consumer's stream has ended: no more deliveries will arrive.
        var inputFinished = false
        /// Draining: nothing starts any more.
        var closed = false
        var waiter: CheckedContinuation<LaneQueue.Started?, Never>?

        /// What the waiting intake hears now: a delivery to start, the end (nil), or nothing yet.
        mutating func answer() -> LaneQueue.Started?? {
            if closed { return .some(nil) }
            if let next = lanes.start() { return next }
            return inputFinished && lanes.isEmpty ? .some(nil) : nil
        }
    }

    /// Where a delivery waits: its lane, and the credential it will be sent with and that credential's
    /// weight (``LaneQueue``).
    struct Placement {
        var lane: Lane
        var credential = ""
        var weight = 1
    }

    private let state: NIOLockedValueBox<State>
    /// Where a delivery waits (its lane from the queue it came from; its credential read from it).
    private let place: @Sendable (AMQPDelivery) -> Placement

    init(limit: Int, reserved: Int, place: @escaping @Sendable (AMQPDelivery) -> Placement) {
        state = NIOLockedValueBox(State(lanes: LaneQueue(limit: limit, reserved: reserved)))
        self.place = place
    }

    /// Jobs running now, and deliveries waiting, by lane.
    var counts: (runningUrgent: Int, runningBulk: Int, waitingUrgent: Int, waitingBulk: Int) {
        state.withLockedValue { ($0.lanes.runningUrgent, $0.lanes.runningBulk, $0.lanes.waitingUrgent, $0.lanes.waitingBulk) }
    }

    /// Jobs running now, and deliveries waiting, per credential with either.
    var credentialCounts: [(credential: String, running: Int, waiting: Int)] {
        state.withLockedValue { $0.lanes.credentials }
    }

    /// Whether the intake is waiting right now.
    var isWaiting: Bool { state.withLockedValue { $0.waiter != nil } }

    /// Deliveries read from the broker join their lanes' lines; the intake is woken if one may start.
    func arrived(_ batch: [AMQPDelivery]) {
        let placements = batch.map(place)
        resumeWaiter { state in
            for (delivery, placement) in zip(batch, placements) {
                state.lanes.arrived(delivery, lane: placement.lane, credential: placement.credential, weight: placement.weight)
            }
        }
    }

    /// The consumer's stream ended. Returns what still waits when draining (to go back to the queue
    /// now that the broker confirmed the cancel, so it cannot come straight back to this consumer);
    /// otherwise what waits still starts.
    func inputFinished() -> [AMQPDelivery] {
        var leftovers: [AMQPDelivery] = []
        resumeWaiter { state in
            state.inputFinished = true
            if state.closed { leftovers = state.lanes.removeAll() }
        }
        return leftovers
    }

    /// The next delivery to start, its slot taken, waiting while none may start; nil once draining (or
    /// the waiting task is cancelled, taken as draining), or once the stream ended and nothing waits.
    func next() async -> LaneQueue.Started? {
        guard !Task.isCancelled else {
            close()
            return nil
        }
        // Under load a slot is usually free and a delivery waiting: answered here, with no
        // continuation to allocate and no suspension, once per job.
        if let answer = state.withLockedValue({ $0.answer() }) { return answer }
        return await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                let answer = state.withLockedValue { state -> LaneQueue.Started?? in
                    if let answer = state.answer() { return answer }
                    precondition(state.waiter == nil, "only the intake waits")
                    state.waiter = continuation
                    return nil
                }
                if let answer { continuation.resume(returning: answer) }
            }
        } onCancel: {
            close()
        }
    }

    /// A job the intake started ended: its slot goes to the next delivery, if the intake waits for one.
    func finished(_ started: LaneQueue.Started) {
        resumeWaiter { $0.lanes.finished(started) }
    }

    /// Draining: nothing starts any more. Once the stream ends, ``inputFinished()`` hands back what waits.
    func close() {
        resumeWaiter { $0.closed = true }
    }

    /// Applies `change`, then answers the waiting intake if there is now something to say.
    private func resumeWaiter(_ change: (inout State) -> Void) {
        let resume = state.withLockedValue { state -> (CheckedContinuation<LaneQueue.Started?, Never>, LaneQueue.Started?)? in
            change(&state)
            guard let waiter = state.waiter, let answer = state.answer() else { return nil }
            state.waiter = nil
            return (waiter, answer)
        }
        if let (waiter, answer) = resume { waiter.resume(returning: answer) }
    }
}
