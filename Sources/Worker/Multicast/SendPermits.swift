import NIOConcurrencyHelpers

/// Requests the worker's multicast jobs may have at APNs at once, handed out first come, first served.
///
/// A multicast job takes a permit before it starts each token's request and gives it back when APNs
/// answers, so all multicast jobs together keep no more requests in flight than single jobs could
/// (``WorkerSettings/jobConcurrency``), and a 10,000-token job waits its turn instead of queueing
/// thousands of requests in front of everyone else's. Waiters are the jobs' fan-out loops, one each.
final class SendPermits: Sendable {
    private struct State {
        var free: Int
        var waiters: [CheckedContinuation<Void, Never>] = []
        /// Index of the first waiter not yet resumed (removing from the front of an array is O(n)).
        var head = 0
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

    /// Takes a permit, waiting behind earlier callers while none is free.
    func acquire() async {
        if state.withLockedValue({ state in
            guard state.free > 0, state.head == state.waiters.count else { return false }
            state.free -= 1
            return true
        }) { return }
        await withCheckedContinuation { continuation in
            let granted = state.withLockedValue { state in
                if state.free > 0, state.head == state.waiters.count {
                    state.free -= 1
                    return true
                }
                state.waiters.append(continuation)
                return false
            }
            if granted { continuation.resume() }
        }
    }

    /// Gives a permit back, straight to the longest waiter if there is one.
    func release() {
        let next = state.withLockedValue { state -> CheckedContinuation<Void, Never>? in
            guard state.head < state.waiters.count else {
                state.free += 1
                return nil
            }
            let waiter = state.waiters[state.head]
            state.head += 1
            if state.head == state.waiters.count {
                state.waiters.removeAll(keepingCapacity: true)
                state.head = 0
            }
            return waiter
        }
        next?.resume()
    }
}
