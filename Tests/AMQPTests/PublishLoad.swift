import AMQP
import Synchronization

/// Shared state of the background publishers in ``AMQPReconnectTests/forcedClose()``.
final class PublishLoad: Sendable {
    let stop = Atomic<Bool>(false)
    let failures = Mutex<[AMQPError.Code]>([])
}
