import AMQP
import NIOConcurrencyHelpers

/// Ends a dead-letter pass that would otherwise wait for ever: cancels the consumer (which finishes
/// the delivery stream) when the operator asks to stop, or when no letter arrived for the idle timeout
/// while the pass was waiting for one. Time spent on a letter (a paced replay) is not idleness.
final class SweepWatchdog: Sendable {
    private struct State {
        var lastChange = ContinuousClock.now
        var busy = false
        var cancelled = false
    }

    private let state = NIOLockedValueBox(State())
    private let amqp: AMQPClient
    private let task: NIOLockedValueBox<Task<Void, Never>?> = NIOLockedValueBox(nil)

    init(idleTimeout: Duration, stop: @escaping @Sendable () -> Bool, amqp: AMQPClient) {
        self.amqp = amqp
        task.withLockedValue {
            $0 = Task { [weak self] in
                while !Task.isCancelled {
                    try? await Task.sleep(for: .milliseconds(100))
                    guard let self else { return }
                    let idle = self.state.withLockedValue { !$0.busy && ContinuousClock.now - $0.lastChange > idleTimeout }
                    if stop() || idle {
                        await self.cancelConsumer()
                        return
                    }
                }
            }
        }
    }

    /// A letter arrived and is being handled.
    func arrived() {
        state.withLockedValue {
            $0.busy = true
            $0.lastChange = .now
        }
    }

    /// The pass waits for the next letter.
    func waiting() {
        state.withLockedValue {
            $0.busy = false
            $0.lastChange = .now
        }
    }

    /// Stops watching and cancels the consumer, if that was not done already.
    func finish() async {
        task.withLockedValue { $0?.cancel() }
        await cancelConsumer()
    }

    private func cancelConsumer() async {
        let first = state.withLockedValue { state in
            defer { state.cancelled = true }
            return !state.cancelled
        }
        if first { await amqp.cancelConsuming() }
    }
}
