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
        let continuation: CheckedContinuation<APNsConnection, any Error>
        var timeout: Scheduled<Void>?
    }

    var entries: [Int: Entry] = [:]
    var waiters = CircularBuffer<Waiter>()
    var nextConnectionID = 1
    var consecutiveFailures = 0
    var lastAttempt: NIODeadline?
    var connectScheduled = false
    var isShutDown = false
    /// Set at the first `send`: a pool keeps its connections up from then on.
    var isStarted = false
    var lastConnectError: (any Error)?

    /// Connections that count toward the target: being opened or serving.
    var activeCount: Int { entries.values.filter { $0.phase != .draining }.count }

    var hasUsableConnection: Bool { entries.values.contains { $0.phase == .ready } }

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

    mutating func removeWaiter(_ id: UInt64) -> Waiter? {
        guard let index = waiters.firstIndex(where: { $0.id == id }) else { return nil }
        return waiters.remove(at: index)
    }
}
