import NIOConcurrencyHelpers

/// Something that happens once, and a task that waits for it: fired from any thread, before or after
/// the wait begins. The wait ignores cancellation, like the work it waits for.
final class OneTimeSignal: Sendable {
    private enum State {
        case pending
        case waiting(CheckedContinuation<Void, Never>)
        case fired
    }

    /// A pthread lock, not a `Mutex`: it is fired on event loops and waited for on tasks, and
    /// ThreadSanitizer cannot see `Mutex`'s futex (it reported `MulticastRun`'s as a race).
    private let state = NIOLockedValueBox(State.pending)

    /// It happened: the waiter, if any, goes on. Firing again changes nothing.
    func fire() {
        let waiter = state.withLockedValue { state -> CheckedContinuation<Void, Never>? in
            defer { state = .fired }
            if case .waiting(let continuation) = state { return continuation }
            return nil
        }
        waiter?.resume()
    }

    /// Returns once ``fire()`` was called (at once if it was already). One waiter at a time.
    func wait() async {
        await withCheckedContinuation { continuation in
            let fired = state.withLockedValue { state -> Bool in
                switch state {
                case .fired:
                    return true
                case .pending:
                    state = .waiting(continuation)
                    return false
                case .waiting:
                    preconditionFailure("one waiter at a time")
                }
            }
            if fired { continuation.resume() }
        }
    }
}
