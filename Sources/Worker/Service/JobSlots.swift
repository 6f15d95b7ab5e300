import NIOConcurrencyHelpers

/// The jobs being processed at once, counted against a limit.
///
/// The intake takes a slot before it starts a delivery and each job gives its slot back when it ends.
/// Deliveries beyond the limit therefore stay plain values in the intake's buffer (bounded by the
/// prefetch) instead of each holding a task, with its async frames, while it waits for an APNs stream.
///
/// One caller waits at a time: the intake loop.
final class JobSlots: Sendable {
    private struct State {
        var free: Int
        var closed = false
        var waiter: CheckedContinuation<Bool, Never>?
    }

    let limit: Int
    private let state: NIOLockedValueBox<State>

    init(limit: Int) {
        precondition(limit > 0, "validated by the configuration")
        self.limit = limit
        state = NIOLockedValueBox(State(free: limit))
    }

    /// Slots taken right now.
    var inUse: Int { state.withLockedValue { limit - $0.free } }

    /// Whether the intake is waiting for a slot right now.
    var isWaiting: Bool { state.withLockedValue { $0.waiter != nil } }

    /// Takes a slot, waiting while none is free. Returns false, taking nothing, when none is free once
    /// ``close()`` was called (before or during the wait) or the waiting task is cancelled.
    func acquire() async -> Bool {
        if let taken = state.withLockedValue({ Self.take(&$0, cancelled: false) }) { return taken }
        return await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                let taken = state.withLockedValue { state -> Bool? in
                    if let taken = Self.take(&state, cancelled: Task.isCancelled) { return taken }
                    precondition(state.waiter == nil, "only the intake waits for a slot")
                    state.waiter = continuation
                    return nil
                }
                if let taken { continuation.resume(returning: taken) }
            }
        } onCancel: {
            state.withLockedValue { state in
                defer { state.waiter = nil }
                return state.waiter
            }?.resume(returning: false)
        }
    }

    /// Gives a slot back, straight to the waiting intake if there is one.
    func release() {
        let waiter = state.withLockedValue { state -> CheckedContinuation<Bool, Never>? in
            guard let waiter = state.waiter else {
                state.free += 1
                return nil
            }
            state.waiter = nil
            return waiter
        }
        waiter?.resume(returning: true)
    }

    /// From now on nobody waits: ``acquire()`` takes a free slot if there is one, else returns false.
    /// A graceful shutdown calls this, so deliveries that never started go back to the queue at once.
    func close() {
        state.withLockedValue { state in
            state.closed = true
            defer { state.waiter = nil }
            return state.waiter
        }?.resume(returning: false)
    }

    /// A free slot (true), a refusal (false), or nil when the caller has to wait.
    private static func take(_ state: inout State, cancelled: Bool) -> Bool? {
        if state.free > 0 {
            state.free -= 1
            return true
        }
        return state.closed || cancelled ? false : nil
    }
}
