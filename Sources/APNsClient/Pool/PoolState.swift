import NIOCore

/// The bookkeeping of one pool, guarded by the pool's lock: connections with their stream limits and
/// streams in use, callers waiting for a stream, and when the next connection attempt may happen.
struct PoolState {
    enum Phase { case connecting, ready, draining }

    struct Entry {
        let connection: APNsConnection
        var phase: Phase
        var limit = 0
        var inFlight = 0
        var free: Int { phase == .ready ? max(0, limit - inFlight) : 0 }
    }

    struct Waiter {
        let id: UInt64
        let continuation: UnsafeContinuation<APNsConnection, any Error>
        /// When the caller stops waiting; checked by a sweep, as the connections check their streams.
        let deadline: NIODeadline
    }

    var entries: [Int: Entry] = [:]
    var waiters = CircularBuffer<Waiter>()
    var nextConnectionID = 1
    var consecutiveFailures = 0
    var lastAttempt: NIODeadline?
    var connectScheduled = false
    var waiterSweepScheduled = false
    var isShutDown = false
    /// Set at the first `send`: a pool keeps its connections up from then on.
    var isStarted = false

    /// Connections that count toward the target: being opened or serving.
    var activeCount: Int { entries.values.filter { $0.phase != .draining }.count }

    /// Streams reserved across the pool's connections.
    var streamsInUse: Int { entries.values.reduce(0) { $0 + $1.inFlight } }

    /// Streams the pool's ready connections allow in total.
    var streamLimit: Int { entries.values.reduce(0) { $0 + ($1.phase == .ready ? $1.limit : 0) } }

    /// Reserves a stream on the ready connection with the most free streams.
    mutating func reserveBest() -> APNsConnection? {
        guard let best = entries.max(by: { $0.value.free < $1.value.free }), best.value.free > 0 else { return nil }
        entries[best.key]?.inFlight += 1
        return best.value.connection
    }

    /// Hands free streams to waiting callers, oldest first.
    mutating func serveWaiters() -> [(Waiter, APNsConnection)] {
        var served: [(Waiter, APNsConnection)] = []
        while !waiters.isEmpty, let connection = reserveBest() {
            served.append((waiters.removeFirst(), connection))
        }
        return served
    }

    /// Takes out every waiter whose deadline has passed.
    mutating func removeExpiredWaiters(now: NIODeadline) -> [Waiter] {
        guard waiters.contains(where: { $0.deadline <= now }) else { return [] }
        let expired = waiters.filter { $0.deadline <= now }
        waiters.removeAll { $0.deadline <= now }
        return Array(expired)
    }

    mutating func removeWaiter(_ id: UInt64) -> Waiter? {
        guard let index = waiters.firstIndex(where: { $0.id == id }) else { return nil }
        return waiters.remove(at: index)
    }
}
