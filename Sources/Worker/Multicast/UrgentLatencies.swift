import NIOConcurrencyHelpers

/// How long urgent single-device jobs took in this worker, from their start to their ack, gathered
/// for ``BulkPacer``: the one measure of what a bulk multicast drain costs the work it must not delay.
///
/// Recorded where an urgent job's ack is confirmed (the broker client's event loop), taken by the pacing
/// task once per window. A pthread lock, not `Mutex`: ThreadSanitizer cannot see `Mutex`'s futex.
final class UrgentLatencies: Sendable {
    /// The most kept between two takes: a window of 100 ms at 1,000 urgent jobs a second is 100, and a
    /// worker that paces nothing (no bulk multicast) takes none, so the list must not grow without end.
    static let capacity = 512

    private let samples = NIOLockedValueBox<[Duration]>([])

    /// Keeps one urgent job's latency, unless ``capacity`` are already waiting to be taken.
    func record(_ latency: Duration) {
        samples.withLockedValue { samples in
            guard samples.count < Self.capacity else { return }
            samples.append(latency)
        }
    }

    /// The latencies recorded since the last take, once there are at least `minimum` of them (else
    /// none, and they stay for the next take).
    func take(atLeast minimum: Int) -> [Duration] {
        samples.withLockedValue { samples in
            guard samples.count >= minimum else { return [] }
            defer { samples.removeAll(keepingCapacity: true) }
            return samples
        }
    }

    /// Forgets what was recorded: while no bulk multicast runs, urgent jobs say nothing about it.
    func discard() {
        samples.withLockedValue { $0.removeAll(keepingCapacity: true) }
    }
}
