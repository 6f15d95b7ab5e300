import NIOConcurrencyHelpers

/// Requests the worker's multicast jobs may have at APNs at once, handed out first come, first served.
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
        /// Waiters in arrival order; a withdrawn one leaves a hole (nil) behind.
        var waiters: [Waiter?] = []
        /// Index of the first waiter not yet resumed (removing from the front of an array is O(n)).
        var head = 0

        /// Drops the resumed prefix once it is most of the array: under constant contention the list is
        /// never empty, and without this it would grow by one entry per permit handed out.
        mutating func compact() {
            if head == waiters.count {
                waiters.removeAll(keepingCapacity: true)
                head = 0
            } else if head > 1024, head * 2 > waiters.count {
                waiters.removeFirst(head)
                head = 0
            }
        }
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
    var waiting: Int { state.withLockedValue { $0.waiters[$0.head...].count { $0 != nil } } }

    /// Takes a permit for `key`, waiting behind earlier callers while none is free. Returns false,
    /// taking nothing, when `wanted` is false (checked under the same lock ``withdraw(_:)`` takes, so a
    /// withdrawal is never missed) or the wait is withdrawn.
    func acquire(for key: ObjectIdentifier, while wanted: @escaping @Sendable () -> Bool) async -> Bool {
        await withCheckedContinuation { continuation in
            let answer = state.withLockedValue { state -> Bool? in
                guard wanted() else { return false }
                if state.free > 0, state.head == state.waiters.count {
                    state.free -= 1
                    return true
                }
                state.waiters.append(Waiter(key: key, continuation: continuation))
                return nil
            }
            if let answer { continuation.resume(returning: answer) }
        }
    }

    /// Ends `key`'s wait, if it is waiting, without a permit.
    func withdraw(_ key: ObjectIdentifier) {
        let withdrawn = state.withLockedValue { state -> CheckedContinuation<Bool, Never>? in
            guard let index = state.waiters[state.head...].firstIndex(where: { $0?.key == key }) else { return nil }
            defer { state.waiters[index] = nil }
            return state.waiters[index]?.continuation
        }
        withdrawn?.resume(returning: false)
    }

    /// Gives a permit back, straight to the longest waiter if there is one.
    func release() {
        let next = state.withLockedValue { state -> CheckedContinuation<Bool, Never>? in
            while state.head < state.waiters.count {
                let waiter = state.waiters[state.head]
                state.head += 1
                if let waiter {
                    state.compact()
                    return waiter.continuation
                }
            }
            state.compact()
            state.free += 1
            return nil
        }
        next?.resume(returning: true)
    }
}
