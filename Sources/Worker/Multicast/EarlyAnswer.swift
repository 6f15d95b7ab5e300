import NIOConcurrencyHelpers

/// An answer that can arrive before the call that asked for it returns (a send refused at once: no
/// connection, the client shut down). The caller's loop then takes it (``afterAsking()``) instead of
/// the answer's callback starting the next send inside that call: a chain of sends refused at once
/// would otherwise nest a call per token, and a 10,000-token job would overflow the stack.
final class EarlyAnswer<Answer: Sendable>: Sendable {
    private enum State {
        case asking
        case asked
        case answered(Answer)
    }

    /// A pthread lock, not a `Mutex`: ThreadSanitizer sees through it.
    private let state = NIOLockedValueBox(State.asking)

    /// From the answer's callback: true when the asking call has returned, and the callback goes on
    /// with the answer itself; false when the caller takes it from ``afterAsking()``.
    func deliver(_ answer: Answer) -> Bool {
        state.withLockedValue { state in
            guard case .asking = state else { return true }
            state = .answered(answer)
            return false
        }
    }

    /// From the caller once the call returned: the answer if it came already, nil if it is to come
    /// (its callback goes on then).
    func afterAsking() -> Answer? {
        state.withLockedValue { state in
            if case .answered(let answer) = state { return answer }
            state = .asked
            return nil
        }
    }
}
