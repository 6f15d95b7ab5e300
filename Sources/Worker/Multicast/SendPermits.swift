import NIOConcurrencyHelpers

/// Requests the worker's multicast jobs may have at APNs at once, handed out first come, first served,
/// urgent jobs' before the others.
///
/// A multicast job's lanes each hold a permit while they send its tokens, so all multicast jobs together
/// keep no more requests in flight than the permits, and a 10,000-token job waits its turn instead of
/// queueing thousands of requests in front of everyone else's. Waiters are the jobs' fan-out loops, one
/// each, named by a key so that a job whose lanes ran out of tokens can stop waiting (``withdraw(_:)``)
/// instead of holding its job slot until its turn comes.
final class SendPermits: Sendable {
    private struct Waiter {
        let key: ObjectIdentifier
        let continuation: CheckedContinuation<Bool, Never>
    }

    private struct State {
        var free: Int
        /// Urgent jobs' lanes wait here, served before every lane of ``bulk``.
        var urgent = FIFO<Waiter>()
        var bulk = FIFO<Waiter>()
    }

    let capacity: Int
    private let state: NIOLockedValueBox<State>

    init(capacity: Int) {
        precondition(capacity > 0, "validated by the configuration")
        self.capacity = capacity
        state = NIOLockedValueBox(State(free: capacity))
    }

    /// Permits taken right now.
    var inUse: Int { state.withLockedValue { capacity - $0.free } }

    /// Callers waiting for a permit right now (a withdrawn wait no longer counts).
    var waiting: Int { state.withLockedValue { $0.urgent.count + $0.bulk.count } }

    /// Takes a permit for `key`, waiting behind earlier callers (an `urgent` one only behind earlier
    /// urgent ones) while none is free. Returns false, taking nothing, when `wanted` is false (checked
    /// under the same lock ``withdraw(_:)`` takes, so a withdrawal is never missed) or the wait is withdrawn.
    func acquire(for key: ObjectIdentifier, urgent: Bool = false, while wanted: @escaping @Sendable () -> Bool) async -> Bool {
        await withCheckedContinuation { continuation in
            let answer = state.withLockedValue { state -> Bool? in
                guard wanted() else { return false }
                if state.free > 0, state.urgent.isEmpty, urgent || state.bulk.isEmpty {
                    state.free -= 1
                    return true
                }
                let waiter = Waiter(key: key, continuation: continuation)
                if urgent { state.urgent.append(waiter) } else { state.bulk.append(waiter) }
                return nil
            }
            if let answer { continuation.resume(returning: answer) }
        }
    }

    /// Ends `key`'s wait, if it is waiting, without a permit.
    func withdraw(_ key: ObjectIdentifier) {
        let withdrawn = state.withLockedValue { state in
            state.urgent.remove { $0.key == key } ?? state.bulk.remove { $0.key == key }
        }
        withdrawn?.continuation.resume(returning: false)
    }

    /// Gives a permit back, straight to the longest urgent waiter if there is one, else the longest waiter.
    func release() {
        let next = state.withLockedValue { state -> Waiter? in
            if let waiter = state.urgent.popFirst() ?? state.bulk.popFirst() { return waiter }
            state.free += 1
            return nil
        }
        next?.continuation.resume(returning: true)
    }
}
