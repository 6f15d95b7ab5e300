import AMQP
import NIOConcurrencyHelpers
import WorkerConfiguration

/// The deliveries waiting to start and the job slots they start in, shared by the task that reads the
/// broker's stream (``arrived(_:)``), the intake loop (``next()``) and the jobs (``finished(_:)``).
///
/// Deliveries beyond the slots stay plain values here (bounded by the lanes' prefetch) instead of each
/// holding a task, with its async frames, while it waits for an APNs stream. Which one starts next is
/// ``LaneQueue``'s decision: urgent first, and bulk never in the reserved slots.
///
/// One caller waits at a time: the intake loop.
final class JobIntake: Sendable {
    private struct State {
        var lanes: LaneQueue
        /// The consumer's stream has ended: no more deliveries will arrive.
        var inputFinished = false
        /// Draining: nothing starts any more.
        var closed = false
        var waiter: CheckedContinuation<(delivery: AMQPDelivery, lane: Lane)?, Never>?

        /// What the waiting intake hears now: a delivery to start, the end (nil), or nothing yet.
        mutating func answer() -> (delivery: AMQPDelivery, lane: Lane)?? {
            if closed { return .some(nil) }
            if let next = lanes.start() { return next }
            return inputFinished && lanes.isEmpty ? .some(nil) : nil
        }
    }

    private let state: NIOLockedValueBox<State>
    /// Which lane a delivery waits in (from the queue it came from).
    private let laneOf: @Sendable (AMQPDelivery) -> Lane

    init(limit: Int, reserved: Int, laneOf: @escaping @Sendable (AMQPDelivery) -> Lane) {
        state = NIOLockedValueBox(State(lanes: LaneQueue(limit: limit, reserved: reserved)))
        self.laneOf = laneOf
    }

    /// Jobs running now, and deliveries waiting, by lane.
    var counts: (runningUrgent: Int, runningBulk: Int, waitingUrgent: Int, waitingBulk: Int) {
        state.withLockedValue { ($0.lanes.runningUrgent, $0.lanes.runningBulk, $0.lanes.waitingUrgent, $0.lanes.waitingBulk) }
    }

    /// Whether the intake is waiting right now.
    var isWaiting: Bool { state.withLockedValue { $0.waiter != nil } }

    /// Deliveries read from the broker join their lanes' lines; the intake is woken if one may start.
    func arrived(_ batch: [AMQPDelivery]) {
        let lanes = batch.map(laneOf)
        resumeWaiter { state in
            for (delivery, lane) in zip(batch, lanes) { state.lanes.arrived(delivery, lane: lane) }
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
    func next() async -> (delivery: AMQPDelivery, lane: Lane)? {
        await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                let answer = state.withLockedValue { state -> (delivery: AMQPDelivery, lane: Lane)?? in
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

    /// A job of `lane` ended: its slot goes to the next delivery, if the intake waits for one.
    func finished(_ lane: Lane) {
        resumeWaiter { $0.lanes.finished(lane) }
    }

    /// Draining: nothing starts any more. Once the stream ends, ``inputFinished()`` hands back what waits.
    func close() {
        resumeWaiter { $0.closed = true }
    }

    /// Applies `change`, then answers the waiting intake if there is now something to say.
    private func resumeWaiter(_ change: (inout State) -> Void) {
        let resume = state.withLockedValue { state -> (CheckedContinuation<(delivery: AMQPDelivery, lane: Lane)?, Never>, (delivery: AMQPDelivery, lane: Lane)?)? in
            change(&state)
            guard let waiter = state.waiter, let answer = state.answer() else { return nil }
            state.waiter = nil
            return (waiter, answer)
        }
        if let (waiter, answer) = resume { waiter.resume(returning: answer) }
    }
}
