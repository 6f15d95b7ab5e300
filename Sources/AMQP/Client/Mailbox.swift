import NIOConcurrencyHelpers

/// The lock-protected queue of commands for the connection thread, and the client's life cycle.
///
/// Callers on any task `submit`; the thread `take`s everything queued at once. A command that no thread will
/// ever run (before `connect()` or after `close()`) is failed at once instead of being queued.
final class Mailbox: Sendable {
    enum Phase: Sendable {
        /// No thread: `connect()` was not called, or its first round failed.
        case idle
        /// The thread is trying the endpoints for the first time; commands wait for it.
        case starting
        case running
        case closed
    }

    private struct State {
        var phase = Phase.idle
        var commands: [ClientCommand] = []
        /// A wake-up byte is in the pipe and not yet drained, so another one is unnecessary.
        var signalled = false
    }

    private let state = NIOLockedValueBox(State())
    let wakeup: WakeupPipe

    init(wakeup: WakeupPipe) {
        self.wakeup = wakeup
    }

    var phase: Phase { state.withLockedValue { $0.phase } }

    /// Whether a `close()` waits in the queue (read while the first connection is still being tried).
    var closeRequested: Bool { state.withLockedValue { $0.commands.contains(where: \.isClose) } }

    func submit(_ command: ClientCommand) {
        enum Verdict { case queued(signal: Bool), rejected(String) }
        let verdict: Verdict = state.withLockedValue { state in
            switch state.phase {
            case .idle: return .rejected("the client is not connected; call connect() first")
            case .closed: return .rejected("the client is closed")
            case .starting, .running:
                state.commands.append(command)
                defer { state.signalled = true }
                return .queued(signal: !state.signalled)
            }
        }
        switch verdict {
        case .queued(let signal): if signal { wakeup.signal() }
        case .rejected(let reason): command.fail(AMQPError(.notConnected, operation: command.operation, message: reason))
        }
    }

    /// Everything queued so far, oldest first; drains the pipe before looking so no signal is lost.
    func take() -> [ClientCommand] {
        wakeup.drain()
        return state.withLockedValue { state in
            state.signalled = false
            defer { state.commands = [] }
            return state.commands
        }
    }

    /// `idle` → `starting`; returns the phase found, so the caller knows whether it should start the thread.
    func beginStart() -> Phase {
        state.withLockedValue { state in
            defer { if state.phase == .idle { state.phase = .starting } }
            return state.phase
        }
    }

    /// The first round ended: `running`, or back to `idle` with the commands that queued up meanwhile
    /// (`closed` if one of them was a `close()`).
    func finishStart(succeeded: Bool) -> [ClientCommand] {
        state.withLockedValue { state in
            state.phase = succeeded ? .running : state.commands.contains(where: \.isClose) ? .closed : .idle
            defer { if !succeeded { state.commands = [] } }
            return succeeded ? [] : state.commands
        }
    }

    /// → `closed` for good; returns whatever was still queued. `onlyIfIdle` closes only a thread-less client.
    func close(onlyIfIdle: Bool = false) -> (closed: Bool, leftovers: [ClientCommand]) {
        state.withLockedValue { state in
            guard !onlyIfIdle || state.phase == .idle || state.phase == .closed else { return (false, []) }
            state.phase = .closed
            defer { state.commands = [] }
            return (true, state.commands)
        }
    }
}
