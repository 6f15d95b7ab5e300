import AMQP
import Synchronization

/// Messages a consumer task has received, and when the last came.
final class Inbox: Sendable {
    private let state = Mutex((messages: [AMQPMessage](), lastArrival: ContinuousClock.now))

    var count: Int { state.withLock { $0.messages.count } }
    var messages: [AMQPMessage] { state.withLock { $0.messages } }
    var lastArrival: ContinuousClock.Instant { state.withLock { $0.lastArrival } }

    func add(_ message: AMQPMessage) {
        state.withLock { state in
            state.messages.append(message)
            state.lastArrival = ContinuousClock.now
        }
    }
}
