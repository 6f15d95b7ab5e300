internal import Logging
internal import NIOCore
internal import NumberedWindows
internal import Synchronization
internal import TLS

/// The client's core on its event loop: it feeds what happens (commands from callers, frames from the
/// broker, time passing) to ``ConnectionStateMachine`` and carries out the actions it returns; the
/// decisions live there, the I/O (through ``AMQPConnection``) and the continuations here.
///
/// `@unchecked Sendable`: every method runs on `loop` (the client submits each command there, or calls
/// directly when already on it; connections and timers call back on it), so no two threads ever touch
/// its state. Debug builds check that on each entry.
final class ConnectionDriver: @unchecked Sendable {
    /// Where the client is in its life: commands before `connect()` fail, during the first attempts
    /// they wait, after `close()` they fail.
    enum Phase {
        case idle
        case starting(queued: [ClientCommand])
        case running
        case closed
    }

    let options: AMQPClientOptions
    let logger: Logger
    let loop: any EventLoop
    let counters: ClientCounters
    let connector: any AMQPConnector
    /// The time the state machine sees; tests drive it.
    let now: () -> ContinuousClock.Instant

    var phase = Phase.idle
    var state: ConnectionStateMachine
    /// The open connection; nil between a failure and the next successful (re)connect.
    var connection: AMQPConnection?
    /// A connection being opened, and who hears how it went.
    var opening: (connection: AMQPConnection, done: (Result<AMQPConnection, AMQPError>) -> Void)?
    /// Single publishes waiting to be written or confirmed: the message until it is written, and the
    /// caller's continuation.
    var publishes = NumberedWindow<PendingPublish>()
    var batches = NumberedWindow<@Sendable (AMQPBatchOutcome) -> Void>()
    /// The batch member being written: members are written as their batch is taken, without a place
    /// in ``publishes`` (their outcomes go to the batch).
    var memberBeingWritten: (id: PublishID, request: PublishRequest)?
    var nextID: UInt64 = 0
    /// A `consume()` caller waiting for the consumer's first start, and the sink it brought.
    var consumeWaiter: CheckedContinuation<Void, any Error>?
    var sink: DeliverySink?
    /// Deliveries read since the last hand-over, handed over together when the read completes.
    var received: [AMQPDelivery] = []
    /// Storage for each tick's flush of settlements (see ``ConnectionStateMachine/flushSettlements(into:)``).
    var flushActions: [ConnectionAction] = []
    var closeWaiters: [CheckedContinuation<Void, Never>] = []
    /// `cancelConsuming()` callers, answered when the consumer is gone.
    var cancelWaiters: [CheckedContinuation<Void, Never>] = []
    /// Connections told to close whose socket has not closed yet.
    var closingConnections = 0
    /// The state machine's next deadline, and the timer set for it.
    var timer: (due: ContinuousClock.Instant, task: Scheduled<Void>)? {
        didSet { timerIsSet = timer != nil }
    }
    /// Whether ``timer`` is set, as a flag: see ``scheduleTimer()``.
    private var timerIsSet = false
    /// A tick of the state machine is running (it must not start another from within).
    var ticking = false
    /// Acks and batches settled outside a read wait for the end of the tick, to go out together.
    var endOfTickScheduled = false
    /// The `connect()` caller waiting for the first rounds, and the timer of the next round.
    var startContinuation: CheckedContinuation<Void, any Error>?
    var startRetry: (task: Scheduled<Void>, error: AMQPError)?
    var startDeadline = ContinuousClock.now
    var startWindow = Duration.zero
    var startBackoff = ReconnectBackoff(initial: .zero, maximum: .zero)
    var tlsContextCache: TLSContext?
    /// The figures last stored in ``counters``.
    var published = ConnectionStateMachine.Figures()

    struct PendingPublish {
        var request: PublishRequest?
        let continuation: CheckedContinuation<AMQPPublishOutcome, any Error>
    }

    init(options: AMQPClientOptions, logger: Logger, loop: any EventLoop, counters: ClientCounters, connector: any AMQPConnector, now: @escaping () -> ContinuousClock.Instant) {
        self.options = options
        self.logger = logger
        self.loop = loop
        self.counters = counters
        self.connector = connector
        self.now = now
        state = ConnectionStateMachine(
            endpointCount: options.endpoints.count,
            reconnectBackoff: ReconnectBackoff(initial: options.initialReconnectDelay, maximum: options.maximumReconnectDelay),
            random: SystemRandomNumberGenerator()
        )
    }

    /// Runs an event's actions, then publishes the figures other tasks read and sets the timer.
    func run(_ actions: [ConnectionAction]) {
        // Before the actions too: a caller they resume must already see the state the event made.
        if !actions.isEmpty { publishFigures() }
        for action in actions { perform(action) }
        // A close ends as soon as the last confirm arrived or the connection went, not only at its
        // deadline: the state machine decides that in `tick`, so it hears every change while closing.
        if state.isClosing, case .running = phase, !ticking {
            ticking = true
            let more = state.tick(now: now())
            ticking = false
            if !more.isEmpty { run(more) }
        }
        publishFigures()
        scheduleTimer()
    }

    /// The connection failed (a socket error, a channel or connection the broker closed).
    func fail(_ error: AMQPError) {
        if let connection { logger.warning("AMQP connection lost", metadata: ["endpoint": "\(connection.endpoint)", "error": "\(error)"]) }
        run(state.connectionFailed(error, now: now()))
    }

    /// A new id for a publish or a batch.
    func makeID() -> UInt64 {
        makeIDs(1).lowerBound
    }

    /// `count` new consecutive ids, as a range: a batch's members (an array of them was an allocation
    /// per job).
    func makeIDs(_ count: Int) -> Range<UInt64> {
        defer { nextID += UInt64(count) }
        return (nextID + 1)..<(nextID + 1 + UInt64(count))
    }

    /// Coalesced acks and what they settle, at the end of this tick (once however many asked).
    func scheduleEndOfTick() {
        guard !endOfTickScheduled else { return }
        endOfTickScheduled = true
        loop.execute { [self] in endOfTick() }
    }

    /// What a tick ends with: the deliveries read handed over, the acks asked for written (coalesced),
    /// the figures stored, and the connection's buffer written.
    func endOfTick() {
        endOfTickScheduled = false
        handOver()
        var actions: [ConnectionAction] = []
        swap(&actions, &flushActions)
        state.flushSettlements(into: &actions)
        run(actions)
        actions.removeAll(keepingCapacity: true)
        swap(&actions, &flushActions)
        connection?.flush()
    }

    /// One timer, for the state machine's earliest deadline (a reconnect, a consumer retry, a close).
    private func scheduleTimer() {
        // Nearly every call: consuming, not closing, no timer. Decided from flags, because testing or
        // comparing optional `Instant`s goes through their value witnesses (about 900 instructions a
        // call here, counted by callgrind).
        if !timerIsSet, state.isConsuming, !state.isClosing { return }
        // A closed client has nothing due: its state machine still holds the close's deadline.
        let due: ContinuousClock.Instant? = if case .closed = phase { nil } else { state.nextDeadlineInPlace() }
        guard due != timer?.due else { return }
        timer?.task.cancel()
        timer = nil
        guard let due else { return }
        let delay = max(.zero, due - now())
        let task = loop.scheduleTask(in: .nanoseconds(Int64(clamping: delay.nanoseconds))) { [self] in
            timer = nil
            run(state.tick(now: max(now(), due)))
        }
        timer = (due, task)
    }

    /// Stores only what changed: this runs for every event, and most events change none of it.
    private func publishFigures() {
        let figures = state.figures()
        guard figures != published else { return }
        published = figures
        counters.generation.store(figures.generation, ordering: .sequentiallyConsistent)
        counters.connected.store(figures.connected, ordering: .relaxed)
        counters.consuming.store(figures.consuming, ordering: .relaxed)
        counters.unconfirmed.store(figures.unconfirmed, ordering: .relaxed)
    }

}

extension Duration {
    /// The duration in whole nanoseconds (saturating), for NIO's `TimeAmount`.
    var nanoseconds: Int64 {
        let (seconds, attoseconds) = components
        let (product, overflow) = seconds.multipliedReportingOverflow(by: 1_000_000_000)
        return overflow ? (seconds < 0 ? .min : .max) : product.addingReportingOverflow(attoseconds / 1_000_000_000).partialValue
    }
}
