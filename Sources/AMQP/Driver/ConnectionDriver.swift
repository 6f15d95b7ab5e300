internal import Logging
internal import Synchronization
#if canImport(Glibc)
internal import Glibc
#endif

/// The connection thread: the only code that touches rabbitmq-c. It feeds what happens (commands from
/// callers, frames from the broker, time passing) to ``ConnectionStateMachine`` and runs the actions it
/// returns; the decisions live there, the I/O and the continuations here.
///
/// Each turn runs the queued commands, reads every frame that is ready, writes the acks they allow
/// (coalesced), hands the deliveries read over in one batch, runs what is due, then sleeps in `poll()`
/// on the socket and the wake-up pipe for at most ``pollInterval``, so rabbitmq-c gets a call (and
/// sends or checks heartbeats) well within heartbeat/2. Not `Sendable`: created on the connection
/// thread and confined to it; continuations carry results out.
final class ConnectionDriver {
    /// Upper bound of one `poll()`; far below any heartbeat/2 a broker accepts (heartbeats are whole seconds).
    static let pollInterval: Duration = .milliseconds(100)
    /// Frames handled per turn before commands get their chance again.
    static let framesPerTurn = 512

    let options: AMQPClientOptions
    let logger: Logger
    let mailbox: Mailbox
    let counters: ClientCounters
    let clock = ContinuousClock()

    var state: ConnectionStateMachine<SystemRandomNumberGenerator>
    /// The live connection; nil between a failure and the next successful reconnect.
    var connection: AMQPConnection?
    var assembler = ContentAssembler()

    /// Publishes waiting to be written or confirmed: the message until it is written, and the caller's
    /// continuation (nil for a member of a batch).
    var publishes: [PublishID: PendingPublish] = [:]
    var batches: [BatchID: CheckedContinuation<AMQPBatchOutcome, Never>] = [:]
    var nextID: UInt64 = 0
    /// A `consume()` caller waiting for the consumer's first start, and the sink it brought.
    var consumeWaiter: CheckedContinuation<Void, any Error>?
    var sink: DeliverySink?
    /// Deliveries read this turn, handed over together at its end.
    var received: [AMQPDelivery] = []
    var closeWaiters: [CheckedContinuation<Void, Never>] = []
    var finished = false
    /// The last turn stopped at ``framesPerTurn`` with input possibly left, so the next poll must not sleep.
    var moreInputLikely = false
    /// The figures last stored in ``counters``.
    var published = Figures()

    struct PendingPublish {
        var request: PublishRequest?
        let continuation: CheckedContinuation<AMQPPublishOutcome, any Error>?
    }

    init(options: AMQPClientOptions, logger: Logger, mailbox: Mailbox, counters: ClientCounters) {
        self.options = options
        self.logger = logger
        self.mailbox = mailbox
        self.counters = counters
        state = ConnectionStateMachine(
            endpointCount: options.endpoints.count,
            reconnectBackoff: ReconnectBackoff(initial: options.initialReconnectDelay, maximum: options.maximumReconnectDelay),
            random: SystemRandomNumberGenerator()
        )
    }

    /// The thread's body: the first rounds of connecting (reported to `started`), then the loop until closed.
    func run(started: CheckedContinuation<Void, any Error>, retryingFor window: Duration) {
        do {
            try connectFirstRounds(retryingFor: window)
        } catch {
            let leftovers = mailbox.finishStart(succeeded: false)
            started.resume(throwing: error)
            for command in leftovers { command.fail(AMQPError(.notConnected, operation: command.operation, message: "connect() failed: \(error.message)")) }
            return
        }
        _ = mailbox.finishStart(succeeded: true)
        started.resume()
        while !finished {
            turn()
        }
    }

    private func turn() {
        let commands = mailbox.take()
        // rabbitmq-c writes each frame with its own send(); corking the socket for the turn turns its
        // publishes and acks into a few full segments instead of one small packet per frame.
        connection?.cork()
        for command in commands {
            execute(command)
        }
        if connection != nil { pumpFrames() }
        handOver()
        run(state.flushSettlements())
        run(state.tick(now: clock.now))
        // For metrics and back-pressure: once per turn is often enough.
        counters.unconfirmed.store(state.unconfirmedCount, ordering: .relaxed)
        connection?.uncork()
        if !finished {
            waitForActivity()
        }
    }

    /// Runs an event's actions and publishes the figures other tasks read.
    func run(_ actions: [ConnectionAction]) {
        // Before the actions too: a caller they resume must already see the state the event made.
        publishFigures()
        for action in actions { perform(action) }
        publishFigures()
    }

    /// Stores only what changed: this runs for every event, and most events change none of it.
    private func publishFigures() {
        let figures = Figures(generation: state.generation, connected: state.isConnected, consuming: state.isConsuming)
        guard figures != published else { return }
        published = figures
        counters.generation.store(figures.generation, ordering: .sequentiallyConsistent)
        counters.connected.store(figures.connected, ordering: .relaxed)
        counters.consuming.store(figures.consuming, ordering: .relaxed)
    }

    /// What the counters said last.
    struct Figures: Equatable {
        var generation: UInt64 = 0
        var connected = false
        var consuming = false
    }

    /// The connection failed (a socket error, a channel or connection the broker closed).
    func fail(_ error: AMQPError) {
        if let connection { logger.warning("AMQP connection lost", metadata: ["endpoint": "\(connection.endpoint)", "error": "\(error)"]) }
        run(state.connectionFailed(error, now: clock.now))
    }

    /// A new id for a publish or a batch.
    func makeID() -> UInt64 {
        nextID += 1
        return nextID
    }

    /// Sleeps until the socket or the wake-up pipe is readable, or the next timer is due.
    private func waitForActivity() {
        var timeout = Self.pollInterval
        if moreInputLikely || connection?.hasBufferedInput == true { timeout = .zero }
        if let due = state.nextDeadline { timeout = min(timeout, max(.zero, due - clock.now)) }
        var descriptors = [pollfd(fd: mailbox.wakeup.readDescriptor, events: Int16(POLLIN), revents: 0)]
        if let socket = connection?.socketDescriptor, socket >= 0 {
            descriptors.append(pollfd(fd: socket, events: Int16(POLLIN), revents: 0))
        }
        let (seconds, attoseconds) = timeout.components
        let milliseconds = Int32(seconds * 1000 + attoseconds / 1_000_000_000_000_000)
        _ = poll(&descriptors, nfds_t(descriptors.count), milliseconds)
    }
}
