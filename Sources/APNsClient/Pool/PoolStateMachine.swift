import APNsCore
import NIOCore

/// One pool's connections and the callers waiting for a stream, and every decision about them, with no
/// I/O: which connection takes a request (the one with the most free streams), the bounded line of
/// callers when none has a free stream, when the next connection may be opened (a floor between
/// attempts, exponential backoff after failures), timeouts of waiting callers, draining, shutdown.
///
/// The pool feeds it events under its lock and carries out the actions after; connections and waiting
/// callers are named by id, so tests drive it with no connection at all. Time comes in as `now`,
/// randomness (the backoff's jitter) from `random`.
struct PoolStateMachine<Random: RandomNumberGenerator> {
    typealias ConnectionID = Int
    typealias WaiterID = UInt64

    enum Phase: Equatable { case connecting, ready, draining }

    struct Entry: Equatable {
        var phase: Phase
        var limit = 0
        var inFlight = 0
        var free: Int { phase == .ready ? max(0, limit - inFlight) : 0 }
    }

    struct Waiter: Equatable {
        let id: WaiterID
        /// When the caller stops waiting; checked by a sweep, as connections check their streams.
        let deadline: NIODeadline
    }

    enum Action: Equatable {
        /// Start opening connection `id`; it reports ready or closed later.
        case open(ConnectionID)
        /// Call ``connectCheckDue(now:)`` after this delay (the floor or the backoff is not over).
        case checkConnectionsAgain(in: TimeAmount)
        /// Resume waiting caller `waiter` with a stream reserved on `connection`.
        case serve(WaiterID, on: ConnectionID)
        /// Resume waiting caller `waiter` with `error`.
        case fail(WaiterID, APNsSendError)
        /// Call ``sweepDue(now:)`` after this delay: callers are waiting.
        case sweepWaitersAgain(in: TimeAmount)
        /// Ask connection `id` to take no more streams and close once idle.
        case retire(ConnectionID, reason: String)
    }

    /// What ``acquire(_:now:)`` decided.
    enum Acquisition: Equatable {
        case use(ConnectionID)
        case fail(APNsSendError)
        /// The caller waits; run these actions (open connections, arm the sweep).
        case wait([Action])
    }

    let targetConnections: Int
    let maximumWaiters: Int
    let requestTimeout: TimeAmount
    let reconnect: ReconnectDelay
    var random: Random

    private(set) var entries = ConnectionEntries<Entry>()
    private(set) var waiters = CircularBuffer<Waiter>()
    /// Urgent callers waiting: served before every caller of ``waiters``.
    private(set) var urgentWaiters = CircularBuffer<Waiter>()
    private(set) var nextConnectionID = 1
    private(set) var consecutiveFailures = 0
    /// Why the latest connection attempt failed, while no connection has served since: callers that
    /// time out waiting hear it too (a proxy that stalls, a host that refuses).
    private(set) var lastConnectFailure: APNsSendError?
    private(set) var lastAttempt: NIODeadline?
    /// When the next attempt may start: drawn once per attempt and failure count, so a check that comes
    /// due at that time finds the same answer rather than a new draw of the jitter.
    private(set) var nextAttemptDue: NIODeadline?
    private(set) var connectCheckScheduled = false
    private(set) var sweepScheduled = false
    private(set) var isShutDown = false
    /// Set at the first request: a pool keeps its connections up from then on.
    private(set) var isStarted = false

    init(targetConnections: Int, maximumWaiters: Int, requestTimeout: TimeAmount, reconnect: ReconnectDelay, random: Random) {
        self.targetConnections = targetConnections
        self.maximumWaiters = maximumWaiters
        self.requestTimeout = requestTimeout
        self.reconnect = reconnect
        self.random = random
    }

    /// Connections that count toward the target: being opened or serving.
    var activeCount: Int { entries.reduce(0) { $0 + ($1.entry.phase != .draining ? 1 : 0) } }
    /// Streams reserved across the pool's connections.
    var streamsInUse: Int { entries.reduce(0) { $0 + $1.entry.inFlight } }
    /// Callers waiting, urgent or not.
    var waitingCount: Int { waiters.count + urgentWaiters.count }
    /// Streams the pool's ready connections allow in total.
    var streamLimit: Int { entries.reduce(0) { $0 + ($1.entry.phase == .ready ? $1.entry.limit : 0) } }

    // MARK: Requests

    /// A caller wants a stream: the best free one, else a place in the line (bounded), and connections.
    /// An `urgent` caller may take the streams others leave free (``reservedStreams(of:)``) and waits in
    /// a line served first.
    mutating func acquire(_ waiter: WaiterID, urgent: Bool = false, now: NIODeadline) -> Acquisition {
        if isShutDown { return .fail(APNsSendError(.shutdown, .notProcessed, "the client is shutting down")) }
        isStarted = true
        if let connection = reserveBest(urgent: urgent) { return .use(connection) }
        // Urgent callers are few (the worker's reserved job slots) and must not be turned away because
        // other callers filled the line.
        guard urgent || waitingCount < maximumWaiters else {
            return .fail(APNsSendError(.overloaded, .notProcessed, "\(waitingCount) requests already wait for a stream"))
        }
        let entry = Waiter(id: waiter, deadline: now + requestTimeout)
        if urgent { urgentWaiters.append(entry) } else { waiters.append(entry) }
        return .wait(armSweep() + ensureConnections(now: now))
    }

    /// A caller wants a stream and one is free: reserved on the best connection, with no line, no
    /// sweep and no connection to open. Nil when the caller must go through ``acquire(_:urgent:now:)``.
    mutating func acquireFree(urgent: Bool = false) -> ConnectionID? {
        guard !isShutDown, urgentWaiters.isEmpty || urgent else { return nil }
        return reserveBest(urgent: urgent)
    }

    /// Streams of a connection allowing `limit` that only urgent callers take: a tenth, so an urgent
    /// request finds a stream at once while other requests fill the rest (none below ten streams).
    static func reservedStreams(of limit: Int) -> Int {
        limit / 10
    }

    /// A stream of `connection` is free again: the oldest waiting callers get it. `now` is read only
    /// when someone waits: this runs for every answer, and with nobody waiting there is nothing to time.
    mutating func release(_ connection: ConnectionID, now: @autoclosure () -> NIODeadline) -> [Action] {
        changeInFlight(of: connection, by: -1)
        guard waitingCount > 0 else { return [] }
        return serveWaiters(now: now())
    }

    /// Waiters past their deadline, failed. They are at the front of their lines: every deadline is
    /// the arrival plus the same request timeout.
    private mutating func failExpiredWaiters(now: NIODeadline) -> [Action] {
        var expired: [WaiterID] = []
        while let first = urgentWaiters.first, first.deadline <= now { expired.append(urgentWaiters.removeFirst().id) }
        while let first = waiters.first, first.deadline <= now { expired.append(waiters.removeFirst().id) }
        guard !expired.isEmpty else { return [] }
        let cause = lastConnectFailure.map { "; the last connection attempt failed: \($0.message)" } ?? ""
        let failure = APNsSendError(.timedOut, .notProcessed, "no stream became free within \(requestTimeout)\(cause)")
        return expired.map { .fail($0, failure) }
    }

    /// Counts a stream of connection `id` taken (1) or freed (-1); this runs twice per request.
    private mutating func changeInFlight(of id: ConnectionID, by change: Int) {
        guard var entry = entries[id] else { return }
        entry.inFlight += change
        entries[id] = entry
    }

    /// A waiting caller gave up (its task was cancelled): true when it was still waiting.
    mutating func cancel(_ waiter: WaiterID) -> Bool {
        if let index = waiters.firstIndex(where: { $0.id == waiter }) {
            waiters.remove(at: index)
            return true
        }
        guard let index = urgentWaiters.firstIndex(where: { $0.id == waiter }) else { return false }
        urgentWaiters.remove(at: index)
        return true
    }

    /// The sweep: callers that waited past the request timeout fail.
    mutating func sweepDue(now: NIODeadline) -> [Action] {
        sweepScheduled = false
        return failExpiredWaiters(now: now) + armSweep()
    }

    // MARK: Connections

    /// Connection `id` is up and takes `limit` streams.
    mutating func connectionReady(_ id: ConnectionID, streamLimit limit: Int, now: NIODeadline) -> [Action] {
        entries[id]?.phase = .ready
        entries[id]?.limit = limit
        if consecutiveFailures != 0 { nextAttemptDue = nil }
        consecutiveFailures = 0
        lastConnectFailure = nil
        return serveWaiters(now: now)
    }

    /// Connection `id` takes `limit` streams now (its first accepted push, or new server SETTINGS).
    mutating func streamLimitChanged(_ id: ConnectionID, to limit: Int, now: NIODeadline) -> [Action] {
        entries[id]?.limit = limit
        return serveWaiters(now: now)
    }

    /// Connection `id` takes no new streams: a replacement is opened.
    mutating func connectionDraining(_ id: ConnectionID, now: NIODeadline) -> [Action] {
        entries[id]?.phase = .draining
        return ensureConnections(now: now)
    }

    /// APNs refused the credential: every connection goes.
    func credentialRejected(_ reason: String) -> [Action] {
        entries.ids.map { .retire($0, reason: "credential rejected: \(reason)") }
    }

    /// Connection `id` closed. One that never served is a failed attempt: the backoff grows, and when
    /// nothing else could serve the waiting callers they hear `failure` now rather than at their timeout.
    mutating func connectionClosed(_ id: ConnectionID, wasReady: Bool, failure: APNsSendError, now: NIODeadline) -> [Action] {
        entries[id] = nil
        guard !wasReady else { return ensureConnections(now: now) }
        consecutiveFailures += 1
        lastConnectFailure = failure
        nextAttemptDue = nil
        var actions: [Action] = []
        if !entries.contains(where: { $0.entry.phase != .draining }) {
            actions = (urgentWaiters + waiters).map { .fail($0.id, failure) }
            urgentWaiters.removeAll()
            waiters.removeAll()
        }
        return actions + ensureConnections(now: now)
    }

    /// The delay before the next connection check is over.
    mutating func connectCheckDue(now: NIODeadline) -> [Action] {
        connectCheckScheduled = false
        return ensureConnections(now: now)
    }

    /// Stop: every waiting caller fails, every connection retires.
    mutating func shutdown() -> [Action] {
        isShutDown = true
        let failure = APNsSendError(.shutdown, .notProcessed, "the client is shutting down")
        defer {
            urgentWaiters.removeAll()
            waiters.removeAll()
        }
        return (urgentWaiters + waiters).map { .fail($0.id, failure) } + entries.ids.map { .retire($0, reason: "client shutdown") }
    }

    // MARK: Internals

    /// Opens connections up to the target, one attempt at a time, spaced by the floor and the backoff.
    private mutating func ensureConnections(now: NIODeadline) -> [Action] {
        var actions: [Action] = []
        while isStarted, !isShutDown, !connectCheckScheduled, activeCount < targetConnections {
            if let last = lastAttempt {
                let due = nextAttemptDue ?? last + TimeAmount(reconnect.delay(afterFailures: consecutiveFailures, jitter: Double.random(in: 0.5...1.0, using: &random)))
                nextAttemptDue = due
                if due > now {
                    connectCheckScheduled = true
                    actions.append(.checkConnectionsAgain(in: due - now))
                    break
                }
            }
            let id = nextConnectionID
            nextConnectionID += 1
            lastAttempt = now
            nextAttemptDue = nil
            entries[id] = Entry(phase: .connecting)
            actions.append(.open(id))
        }
        return actions
    }

    /// Reserves a stream on the ready connection with the most free streams (the lowest id on a tie);
    /// a caller that is not urgent only where that leaves the connection's reserved streams free.
    private mutating func reserveBest(urgent: Bool) -> ConnectionID? {
        var best: (id: ConnectionID, free: Int)?
        for (id, entry) in entries where entry.free > (urgent ? 0 : Self.reservedStreams(of: entry.limit)) {
            if best == nil || entry.free > best!.free || (entry.free == best!.free && id < best!.id) { best = (id, entry.free) }
        }
        guard let best else { return nil }
        changeInFlight(of: best.id, by: 1)
        return best.id
    }

    /// Hands free streams to waiting callers, urgent ones first, each line oldest first. Those whose
    /// request timeout passed while they waited fail first, as the sweep would have failed them: a
    /// stream freed between two sweeps must not send a request its caller has already given up on.
    private mutating func serveWaiters(now: NIODeadline) -> [Action] {
        var actions = failExpiredWaiters(now: now)
        while !urgentWaiters.isEmpty, let connection = reserveBest(urgent: true) {
            actions.append(.serve(urgentWaiters.removeFirst().id, on: connection))
        }
        guard urgentWaiters.isEmpty else { return actions }
        while !waiters.isEmpty, let connection = reserveBest(urgent: false) {
            actions.append(.serve(waiters.removeFirst().id, on: connection))
        }
        return actions
    }

    /// The sweep runs a few times per request timeout while anyone waits.
    private mutating func armSweep() -> [Action] {
        guard !sweepScheduled, waitingCount > 0 else { return [] }
        sweepScheduled = true
        return [.sweepWaitersAgain(in: max(.milliseconds(10), min(.milliseconds(100), .nanoseconds(requestTimeout.nanoseconds / 10))))]
    }
}

extension PoolStateMachine: Sendable where Random: Sendable {}
