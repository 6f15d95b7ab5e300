import AMQP
import Synchronization
import NIOConcurrencyHelpers

/// Shared state of the background publishers in ``AMQPReconnectTests/forcedClose()``.
final class PublishLoad: Sendable {
    let stop = Atomic<Bool>(false)
    let failures = NIOLockedValueBox<[AMQPError.Code]>([])
}
