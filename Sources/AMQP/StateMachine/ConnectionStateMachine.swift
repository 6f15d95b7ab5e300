internal import NumberedWindows

/// The AMQP client's state, and every decision about it, with no I/O: the connection's life (connect,
/// fail, back off, rotate through the cluster's nodes, close), publisher confirms and publish batches,
/// the consumer (start, restart, broker cancels), and which delivery tags to ack.
///
/// The driver feeds it events (`action = state.event(…)`) and runs the actions it returns, in order;
/// time comes in as `now`, randomness from `random`, so tests drive both.
struct ConnectionStateMachine {
    /// Whether a connection is up.
    enum Link: Equatable {
        /// Connected; the work channel takes publishes and deliveries.
        case connected
        /// No connection; the next attempt is due at `reconnectAt` (nil when none is planned: closing).
        case down(reconnectAt: ContinuousClock.Instant?)
    }

    /// The one consumer this client runs, across connections: a broker consumer per queue on the work
    /// channel, each allowed its queue's `prefetch` unacknowledged deliveries.
    struct Consumer: Equatable {
        let queues: [AMQPConsumedQueue]
        /// The broker's tag of each queue's consumer on the current channel; a queue without one needs
        /// starting.
        var tags: [String: String] = [:]
        /// When to try starting it again after a failure or a broker-side cancel.
        var retryAt: ContinuousClock.Instant?
        /// A `consume()` caller still waits for the first start.
        var answerPending: Bool

        /// The queues with no broker consumer on the current channel, in the caller's order.
        var idleQueues: [AMQPConsumedQueue] { queues.filter { tags[$0.name] == nil } }
        /// Whether every queue has its broker consumer (asked on every event: no array built).
        var isRunning: Bool { tags.count == queues.count }
        /// The queues, for messages.
        var name: String { queues.map(\.name).joined(separator: ", ") }

        /// The queue whose broker consumer has `tag` on the current channel (a few queues: a scan).
        func queue(ofTag tag: String) -> String? {
            tags.first { $0.value == tag }?.key
        }
    }

    /// A publish batch in flight.
    struct Batch: Equatable {
        /// Each member's outcome, in order; a member still without one counts as confirmed until it has
        /// it (the batch resolves only once every member has).
        var outcomes: PublishOutcomes
        /// Members without their outcome yet: the batch resolves at 0.
        var unsettled: Int
        let deliveryTag: UInt64
        let deliveryGeneration: UInt64
    }

    let endpointCount: Int
    var link: Link = .down(reconnectAt: nil) {
        didSet { isConnected = if case .connected = link { true } else { false } }
    }
    /// Incremented by every successful connection; 0 before the first.
    var generation: UInt64 = 0
    var endpointIndex = 0
    var consumer: Consumer? {
        didSet { consumerIsRunning = consumer?.isRunning == true }
    }
    /// ``link`` is `.connected`, and ``consumer`` is running, kept as flags: the driver asks for
    /// ``figures()`` and ``nextDeadline`` after every event, several times a job, and reading them
    /// from `link` and `consumer` copied their `ContinuousClock.Instant`s through value witnesses (a
    /// resilient standard-library type), about 800 instructions a time (callgrind).
    private(set) var isConnected = false
    private var consumerIsRunning = false
    /// When the close gives up waiting for confirms; nil while the client is not closing.
    var closing: ContinuousClock.Instant? {
        didSet { isClosing = closing != nil }
    }
    /// Whether ``closing`` is set, kept as a flag for the checks every publish and event make: testing
    /// the optional `Instant` goes through its value witnesses (about 350 instructions a time).
    private(set) var isClosing = false
    /// The close has finished (``finishClose()``): nothing is due any more. ``closing`` stays set, so
    /// publishes and consumes are still refused as the client's close.
    var isClosed = false
    var reconnectBackoff: ReconnectBackoff
    var consumerBackoff: ReconnectBackoff
    /// The jitter of reconnect delays (an existential rather than a type parameter: this struct is
    /// read on every event, and a generic one was copied whole by value witnesses to be read).
    var random: any RandomNumberGenerator
    var confirms = PublishConfirms<PublishID>()
    /// Storage for the publishes one confirm settles, kept between confirms: a `multiple` ack settles a
    /// whole batch, and a fresh array grew by doubling through several allocations on every one.
    var settledStorage: [(PublishID, AMQPPublishOutcome)] = []
    var deliveries = DeliveryTags()
    /// Which batch (and which message in it) each publish belongs to.
    var members = NumberedWindow<(batch: BatchID, index: Int)>()
    var batches = NumberedWindow<Batch>()
    /// Batches whose every message is confirmed: resumed (acked) once their ack is written.
    var batchesAwaitingAck: [(BatchID, PublishOutcomes)] = []

    init(endpointCount: Int, reconnectBackoff: ReconnectBackoff, random: any RandomNumberGenerator) {
        self.endpointCount = max(endpointCount, 1)
        self.reconnectBackoff = reconnectBackoff
        consumerBackoff = reconnectBackoff
        self.random = random
    }

    var isConsuming: Bool { isConnected && consumerIsRunning }
    var unconfirmedCount: Int { confirms.count }

    /// The earliest time something is due (a reconnect, a consumer retry, the close deadline).
    var nextDeadline: ContinuousClock.Instant? {
        // Connected and consuming, nothing is due unless the client is closing: the case of nearly
        // every call, answered from the flags.
        if isConsuming, !isClosing { return nil }
        // Only what ``tick(now:)`` acts on: while closing, nothing but the close itself.
        if let closing { return isClosed ? nil : closing }
        if case .down(let at?) = link { return at }
        if isConnected, let at = consumer?.retryAt, consumer?.isRunning == false { return at }
        return nil
    }

    /// What the client publishes for other threads to read.
    struct Figures: Equatable {
        var generation: UInt64 = 0
        var connected = false
        var consuming = false
        var unconfirmed = 0
    }

    /// ``Figures`` now. `mutating` only so the driver reads them in place: read as properties of a
    /// class's stored struct, this struct was copied whole (every dictionary retained and released)
    /// on each of the several events a job makes.
    mutating func figures() -> Figures {
        Figures(generation: generation, connected: isConnected, consuming: isConsuming, unconfirmed: confirms.count)
    }

    /// ``nextDeadline``, read in place (see ``figures()``).
    mutating func nextDeadlineInPlace() -> ContinuousClock.Instant? {
        nextDeadline
    }

    // MARK: Connecting

    /// The first attempt at endpoint `index` (the first round tries each endpoint in turn).
    mutating func tryEndpoint(_ index: Int) -> [ConnectionAction] {
        endpointIndex = index % endpointCount
        return [.open(endpointIndex: endpointIndex)]
    }

    /// A connection is open: a new generation; the consumer starts again if there is one.
    mutating func connected(now: ContinuousClock.Instant) -> [ConnectionAction] {
        generation += 1
        link = .connected
        reconnectBackoff.reset()
        guard var consumer, !isClosing else { return [] }
        consumer.tags = [:]
        consumer.retryAt = nil
        self.consumer = consumer
        return [.startConsumer(queues: consumer.queues)]
    }

    /// An attempt to open failed; the next one waits longer (and moves on to the next node after two).
    mutating func openFailed(_ error: AMQPError, now: ContinuousClock.Instant) -> [ConnectionAction] {
        guard !isClosing else { return [] }
        scheduleReconnect(now: now)
        return []
    }

    /// The connection or its work channel failed: what depended on it fails, the consumer waits for the
    /// next connection, and a reconnect is planned (the node that failed is tried last).
    mutating func connectionFailed(_ error: AMQPError, now: ContinuousClock.Instant) -> [ConnectionAction] {
        guard isConnected else { return [] }
        var actions: [ConnectionAction] = [.closeConnection]
        link = .down(reconnectAt: nil)
        actions += failUnconfirmed(AMQPError.outcomeUnknown(after: error))
        deliveries.reset()
        consumer?.tags = [:]
        consumer?.retryAt = nil
        if !isClosing {
            endpointIndex = (endpointIndex + 1) % endpointCount
            scheduleReconnect(now: now)
        }
        return actions
    }

    /// The client asked for a new connection (say, because its channel keeps a broker-side state that
    /// only a new channel clears): handled as a failure of the connection of `generation`, if that is
    /// still the current one; a request about an older one is already answered.
    mutating func reopenRequested(generation: UInt64, reason: String, now: ContinuousClock.Instant) -> [ConnectionAction] {
        guard isConnected, generation == self.generation else { return [] }
        return connectionFailed(AMQPError(.connectionLost, operation: "reopen the connection", message: "reopened at the client's request: \(reason)"), now: now)
    }

    private mutating func scheduleReconnect(now: ContinuousClock.Instant) {
        let delay = reconnectBackoff.nextDelay(using: &random)
        link = .down(reconnectAt: now + delay)
        if reconnectBackoff.failedAttempts > 1 {
            endpointIndex = (endpointIndex + 1) % endpointCount
        }
    }

    /// Whatever is due at `now`: a reconnect, a consumer restart, the end of a close.
    mutating func tick(now: ContinuousClock.Instant) -> [ConnectionAction] {
        if isClosed { return [] }
        if case .down(let at?) = link, at <= now, !isClosing {
            link = .down(reconnectAt: nil)
            return [.open(endpointIndex: endpointIndex)]
        }
        if isConnected, !isClosing, let consumer, !consumer.idleQueues.isEmpty, let at = consumer.retryAt, at <= now {
            self.consumer?.retryAt = nil
            return [.startConsumer(queues: consumer.idleQueues)]
        }
        // Done once the consumer's cancel is confirmed and every confirm arrived (or at the deadline,
        // or when there is no connection left to wait on).
        if let closing, closing <= now || (confirms.count == 0 && consumer == nil) || !isConnected {
            return finishClose()
        }
        return []
    }

    /// Every publish that waits for a confirm fails with `error`; batches with one resume, un-acked.
    mutating func failUnconfirmed(_ error: AMQPError) -> [ConnectionAction] {
        var actions: [ConnectionAction] = []
        for id in confirms.reset() {
            actions += settle(id, .failure(error))
        }
        // Batches whose acks were never written: their jobs go back to the queue with the channel.
        for (batch, outcomes) in batchesAwaitingAck {
            actions.append(.resumeBatch(batch, outcomes: outcomes, acked: false))
        }
        batchesAwaitingAck = []
        return actions
    }
}
