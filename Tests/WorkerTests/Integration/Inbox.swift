import AMQP
import NIOConcurrencyHelpers

/// Messages a consumer task has received, and when the last came.
final class Inbox: Sendable {
    private let state = NIOLockedValueBox((messages: [AMQPMessage](), lastArrival: ContinuousClock.now))

    var count: Int { state.withLockedValue { $0.messages.count } }
    var messages: [AMQPMessage] { state.withLockedValue { $0.messages } }
    var lastArrival: ContinuousClock.Instant { state.withLockedValue { $0.lastArrival } }

    func add(_ message: AMQPMessage) {
        state.withLockedValue { state in
            state.messages.append(message)
            state.lastArrival = ContinuousClock.now
        }
    }
}
