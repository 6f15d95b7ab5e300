import NIOConcurrencyHelpers
import Synchronization

/// Requests the worker's multicast jobs may have at APNs at once, handed out first come, first served,
/// urgent jobs' before the others, with bulk jobs' held to a limit that pacing moves (``BulkPacer``).
///
/// A multicast job's senders each hold a permit while they send its tokens, so all multicast jobs together
/// keep no more requests in flight than the permits, and a 10,000-token job waits its turn instead of
/// queueing thousands of requests in front of everyone else's. Waiters are the jobs' fan-out loops and
/// senders that gave their permit back (``keep(for:while:)``), named by their job's key so that a job whose
/// senders ran out of tokens can stop waiting (``withdraw(_:)``) instead of holding its job slot until its
/// turn comes.
final class SendPermits: Sendable {
    private struct Waiter {
        let key: ObjectIdentifier
        let continuation: CheckedContinuation<Bool, Never>
    }

    private struct State {
        var urgentInUse = 0
        var bulkInUse = 0
        var bulkLimit: Int
        /// Urgent jobs' senders wait here, served before every sender of ``bulk``.
        var urgent = FIFO<Waiter>()
        var bulk = FIFO<Waiter>()

        var inUse: Int { urgentInUse + bulkInUse }

        /// The next waiter a permit goes to, counted as taken; nil when none may have one now.
        mutating func nextServed(capacity: Int) -> Waiter? {
            guard inUse < capacity else { return nil }
            if let waiter = urgent.popFirst() {
                urgentInUse += 1
                return waiter
            }
            guard bulkInUse < bulkLimit, let waiter = bulk.popFirst() else { return nil }
            bulkInUse += 1
            return waiter
        }
    }

    let capacity: Int
    private let state: NIOLockedValueBox<State>
    /// Whether bulk senders hold more permits than their limit now: read by every bulk sender before each
    /// token without the lock, so a lowered limit takes effect within one request per sender.
    private let bulkOverLimitNow = Atomic(false)

    init(capacity: Int) {
        precondition(capacity > 0, "validated by the configuration")
        self.capacity = capacity
        state = NIOLockedValueBox(State(bulkLimit: capacity))
    }

    /// Permits taken right now.
    var inUse: Int { state.withLockedValue { $0.inUse } }

    /// Callers waiting for a permit right now (a withdrawn wait no longer counts).
    var waiting: Int { state.withLockedValue { $0.urgent.count + $0.bulk.count } }

    /// The permits bulk senders hold now, and whether they wanted more than their limit
    /// (``setBulkLimit(_:)``): they hold every one it allows, or some wait.
    var bulkUse: (inUse: Int, saturated: Bool) {
        state.withLockedValue { ($0.bulkInUse, $0.bulkInUse >= $0.bulkLimit || !$0.bulk.isEmpty) }
    }

    /// Takes a permit for `key`, waiting behind earlier callers (an `urgent` one only behind earlier
    /// urgent ones) while none is free. Returns false, taking nothing, when `wanted` is false (checked
    /// under the same lock ``withdraw(_:)`` takes, so a withdrawal is never missed) or the wait is withdrawn.
    func acquire(for key: ObjectIdentifier, urgent: Bool = false, while wanted: @escaping @Sendable () -> Bool) async -> Bool {
        await withCheckedContinuation { continuation in
            let answer = state.withLockedValue { state -> Bool? in
                guard wanted() else { return false }
                if state.inUse < capacity, state.urgent.isEmpty {
                    if urgent {
                        state.urgentInUse += 1
                        return true
                    }
                    if state.bulk.isEmpty, state.bulkInUse < state.bulkLimit {
                        state.bulkInUse += 1
                        return true
                    }
                }
                let waiter = Waiter(key: key, continuation: continuation)
                if urgent { state.urgent.append(waiter) } else { state.bulk.append(waiter) }
                return nil
            }
            if let answer { continuation.resume(returning: answer) }
        }
    }

    /// Whether bulk senders hold more permits than pacing allows now: a bulk sender then gives its
    /// permit back through ``keep(for:while:)``. Read without the lock, so that a sender on an event
    /// loop decides between tokens without waiting.
    var bulkOverLimit: Bool { bulkOverLimitNow.load(ordering: .relaxed) }

    /// Called by a bulk sender holding a permit before each token: while bulk senders hold more than their
    /// limit, gives the permit back and waits for one at the back of the bulk line. True when the sender
    /// holds a permit afterwards; false when the wait was withdrawn (or `wanted` turned false), the
    /// permit given back.
    func keep(for key: ObjectIdentifier, while wanted: @escaping @Sendable () -> Bool) async -> Bool {
        guard bulkOverLimit else { return true }
        release(urgent: false)
        return await acquire(for: key, while: wanted)
    }

    /// Ends every wait of `key`, without a permit.
    func withdraw(_ key: ObjectIdentifier) {
        let withdrawn = state.withLockedValue { state in
            var waiters: [Waiter] = []
            while let waiter = state.urgent.remove(firstWhere: { $0.key == key }) ?? state.bulk.remove(firstWhere: { $0.key == key }) {
                waiters.append(waiter)
            }
            return waiters
        }
        for waiter in withdrawn { waiter.continuation.resume(returning: false) }
    }

    /// Gives back a permit taken by an `urgent` caller or not; it goes to the longest urgent waiter if
    /// there is one, else to the longest bulk waiter if bulk senders are under their limit.
    func release(urgent: Bool) {
        let next = state.withLockedValue { state -> Waiter? in
            if urgent { state.urgentInUse -= 1 } else { state.bulkInUse -= 1 }
            assert(state.urgentInUse >= 0 && state.bulkInUse >= 0, "a permit given back twice, or as the wrong kind")
            bulkOverLimitNow.store(state.bulkInUse > state.bulkLimit, ordering: .relaxed)
            return state.nextServed(capacity: capacity)
        }
        next?.continuation.resume(returning: true)
    }

    /// Bulk senders may hold `limit` permits from now on (at most ``capacity``): a raise serves waiting
    /// senders at once; under a lower one, senders beyond it give their permits back before their next token.
    func setBulkLimit(_ limit: Int) {
        let served = state.withLockedValue { state -> [Waiter] in
            state.bulkLimit = min(max(1, limit), capacity)
            bulkOverLimitNow.store(state.bulkInUse > state.bulkLimit, ordering: .relaxed)
            var served: [Waiter] = []
            while let waiter = state.nextServed(capacity: capacity) { served.append(waiter) }
            return served
        }
        for waiter in served { waiter.continuation.resume(returning: true) }
    }
}
