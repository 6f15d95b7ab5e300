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
    /// A place in the urgent or the bulk line. The wait it stands for is kept in ``State/waits`` under
    /// its key, so a withdrawal ends a job's waits without searching the lines: a turn whose wait is
    /// gone is dropped when it comes up. The lines hold every waiting job's fan-out loop, and a search
    /// of them at the end of every job cost more than the job's tokens' requests at 100 tokens a job.
    private struct Turn {
        let key: ObjectIdentifier
        let ticket: UInt64
    }

    private struct Wait {
        let ticket: UInt64
        let urgent: Bool
        let continuation: CheckedContinuation<Bool, Never>
    }

    private struct State {
        var urgentInUse = 0
        var bulkInUse = 0
        var bulkLimit: Int
        /// Urgent jobs' senders wait here, served before every sender of ``bulk``.
        var urgent = FIFO<Turn>()
        var bulk = FIFO<Turn>()
        /// Each key's waits, oldest first; a key is here only while it has one.
        var waits: [ObjectIdentifier: [Wait]] = [:]
        /// Waits in each line, not counting turns whose wait was withdrawn.
        var urgentWaiting = 0
        var bulkWaiting = 0
        var nextTicket: UInt64 = 0

        var inUse: Int { urgentInUse + bulkInUse }

        mutating func enqueue(_ key: ObjectIdentifier, urgent isUrgent: Bool, _ continuation: CheckedContinuation<Bool, Never>) {
            let turn = Turn(key: key, ticket: nextTicket)
            nextTicket += 1
            waits[key, default: []].append(Wait(ticket: turn.ticket, urgent: isUrgent, continuation: continuation))
            if isUrgent {
                urgent.append(turn)
                urgentWaiting += 1
            } else {
                bulk.append(turn)
                bulkWaiting += 1
            }
        }

        /// The next waiter a permit goes to, counted as taken; nil when none may have one now.
        mutating func nextServed(capacity: Int) -> CheckedContinuation<Bool, Never>? {
            guard inUse < capacity else { return nil }
            if urgentWaiting > 0, let waiter = takeFirstWait(urgent: true) {
                urgentInUse += 1
                return waiter
            }
            guard bulkInUse < bulkLimit, bulkWaiting > 0, let waiter = takeFirstWait(urgent: false) else { return nil }
            bulkInUse += 1
            return waiter
        }

        /// Takes the oldest wait still standing in one line, dropping the turns of withdrawn waits before it.
        private mutating func takeFirstWait(urgent isUrgent: Bool) -> CheckedContinuation<Bool, Never>? {
            while let turn = isUrgent ? urgent.popFirst() : bulk.popFirst() {
                guard let index = waits.index(forKey: turn.key),
                      let position = waits.values[index].firstIndex(where: { $0.ticket == turn.ticket }) else { continue }
                let wait = waits.values[index].remove(at: position)
                if waits.values[index].isEmpty { waits.remove(at: index) }
                if isUrgent { urgentWaiting -= 1 } else { bulkWaiting -= 1 }
                return wait.continuation
            }
            return nil
        }

        /// Takes every wait of `key` out; a line left with no wait is emptied of the turns withdrawn from it.
        mutating func withdraw(_ key: ObjectIdentifier) -> [Wait] {
            guard let withdrawn = waits.removeValue(forKey: key) else { return [] }
            for wait in withdrawn {
                if wait.urgent { urgentWaiting -= 1 } else { bulkWaiting -= 1 }
            }
            if urgentWaiting == 0 { urgent.removeAll() }
            if bulkWaiting == 0 { bulk.removeAll() }
            return withdrawn
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
    var waiting: Int { state.withLockedValue { $0.urgentWaiting + $0.bulkWaiting } }

    /// The permits bulk senders hold now, and whether they wanted more than their limit
    /// (``setBulkLimit(_:)``): they hold every one it allows, or some wait.
    var bulkUse: (inUse: Int, saturated: Bool) {
        state.withLockedValue { ($0.bulkInUse, $0.bulkInUse >= $0.bulkLimit || $0.bulkWaiting > 0) }
    }

    /// Takes a permit for `key`, waiting behind earlier callers (an `urgent` one only behind earlier
    /// urgent ones) while none is free. Returns false, taking nothing, when `wanted` is false (checked
    /// under the same lock ``withdraw(_:)`` takes, so a withdrawal is never missed) or the wait is withdrawn.
    func acquire(for key: ObjectIdentifier, urgent: Bool = false, while wanted: @escaping @Sendable () -> Bool) async -> Bool {
        await withCheckedContinuation { continuation in
            let answer = state.withLockedValue { state -> Bool? in
                guard wanted() else { return false }
                if state.inUse < capacity, state.urgentWaiting == 0 {
                    if urgent {
                        state.urgentInUse += 1
                        return true
                    }
                    if state.bulkWaiting == 0, state.bulkInUse < state.bulkLimit {
                        state.bulkInUse += 1
                        return true
                    }
                }
                state.enqueue(key, urgent: urgent, continuation)
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

    /// Ends every wait of `key`, without a permit. Costs as much as the key has waits, whatever the lines hold.
    func withdraw(_ key: ObjectIdentifier) {
        let withdrawn = state.withLockedValue { $0.withdraw(key) }
        for wait in withdrawn { wait.continuation.resume(returning: false) }
    }

    /// Gives back a permit taken by an `urgent` caller or not; it goes to the longest urgent waiter if
    /// there is one, else to the longest bulk waiter if bulk senders are under their limit.
    func release(urgent: Bool) {
        let next = state.withLockedValue { state -> CheckedContinuation<Bool, Never>? in
            if urgent { state.urgentInUse -= 1 } else { state.bulkInUse -= 1 }
            assert(state.urgentInUse >= 0 && state.bulkInUse >= 0, "a permit given back twice, or as the wrong kind")
            bulkOverLimitNow.store(state.bulkInUse > state.bulkLimit, ordering: .relaxed)
            return state.nextServed(capacity: capacity)
        }
        next?.resume(returning: true)
    }

    /// Bulk senders may hold `limit` permits from now on (at most ``capacity``): a raise serves waiting
    /// senders at once; under a lower one, senders beyond it give their permits back before their next token.
    func setBulkLimit(_ limit: Int) {
        let served = state.withLockedValue { state -> [CheckedContinuation<Bool, Never>] in
            state.bulkLimit = min(max(1, limit), capacity)
            bulkOverLimitNow.store(state.bulkInUse > state.bulkLimit, ordering: .relaxed)
            var served: [CheckedContinuation<Bool, Never>] = []
            while let waiter = state.nextServed(capacity: capacity) { served.append(waiter) }
            return served
        }
        for waiter in served { waiter.resume(returning: true) }
    }
}
