internal import NIOConcurrencyHelpers
internal import Synchronization

/// Figures the client's driver publishes, on its event loop, for any task to read.
final class ClientCounters: Sendable {
    /// Incremented on each successful (re)connect; deliveries carry the value of their connection.
    let generation = Atomic<UInt64>(0)
    /// Publishes awaiting the broker's confirm.
    let unconfirmed = Atomic<Int>(0)
    /// Whether a connection is open right now (false while reconnecting).
    let connected = Atomic<Bool>(false)
    /// Whether the broker has a consumer of ours registered right now.
    let consuming = Atomic<Bool>(false)
    /// The release of the broker of the last connection opened.
    var serverVersion: RabbitMQVersion? {
        get { version.withLockedValue { $0 } }
        set { version.withLockedValue { $0 = newValue } }
    }
    private let version = NIOLockedValueBox<RabbitMQVersion?>(nil)
}
