import AMQP
import NIOConcurrencyHelpers
import WorkerConfiguration

/// The deliveries waiting to start and the job slots they start in, shared by the AMQP client's loop
/// (``arrived(_:)``, and ``JobStarter`` taking what may start) and the jobs (``finished(_:)``).
///
/// Deliveries beyond the slots stay plain values here (bounded by the lanes' prefetch) until a slot
/// frees. Which one starts next is ``LaneQueue``'s decision: urgent first, bulk never in the reserved
/// slots, and each credential its weighted share while others wait.
final class JobIntake: Sendable {
    private struct State {
        var lanes: LaneQueue
        /// The consumer is gone: no more deliveries will arrive.
        var inputFinished = false
        /// Draining: nothing starts any more.
        var closed = false
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

    /// Deliveries read from the broker join their lanes' lines.
    func arrived(_ batch: [AMQPDelivery]) {
        let placements = batch.map(place)
        state.withLockedValue { state in
            for (delivery, placement) in zip(batch, placements) {
                state.lanes.arrived(delivery, lane: placement.lane, credential: placement.credential, weight: placement.weight)
            }
        }
    }

    /// The next delivery to start, its slot taken; nil while none may start (no slot, nothing
    /// waiting, or draining).
    func take() -> LaneQueue.Started? {
        state.withLockedValue { $0.closed ? nil : $0.lanes.start() }
    }

    /// Whether the shard is draining (``close()``).
    var isClosed: Bool {
        state.withLockedValue { $0.closed }
    }

    /// Whether nothing will start any more: draining, or the consumer is gone and nothing waits.
    var hasEnded: Bool {
        state.withLockedValue { $0.closed || ($0.inputFinished && $0.lanes.isEmpty) }
    }

    /// The consumer is gone. Returns what still waits when draining (to go back to the queue now that
    /// the broker confirmed the cancel, so it cannot come straight back to this consumer); otherwise
    /// what waits still starts.
    func inputFinished() -> [AMQPDelivery] {
        state.withLockedValue { state in
            state.inputFinished = true
            return state.closed ? state.lanes.removeAll() : []
        }
    }

    /// A job that started ended: its slot is free for the next delivery.
    func finished(_ started: LaneQueue.Started) {
        state.withLockedValue { $0.lanes.finished(started) }
    }

    /// Draining: nothing starts any more. Once the consumer is gone, ``inputFinished()`` hands back what waits.
    func close() {
        state.withLockedValue { $0.closed = true }
    }
}
