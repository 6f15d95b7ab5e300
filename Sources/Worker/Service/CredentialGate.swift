public import Foundation
import NIOConcurrencyHelpers

/// Credentials APNs refused, paused until a time: their jobs wait in a retry tier meanwhile instead of
/// hammering APNs with a key it rejects (and being dead-lettered wholesale).
public final class CredentialGate: Sendable {
    private let pausedUntil = NIOLockedValueBox<[String: Date]>([:])
    private let metrics: WorkerMetrics

    public convenience init() {
        self.init(metrics: WorkerMetrics())
    }

    /// A gate reporting through the worker's one set of instruments.
    init(metrics: WorkerMetrics) {
        self.metrics = metrics
    }

    /// Pauses `credential` until `until` (extending, never shortening, a pause in force).
    public func pause(_ credential: String, until: Date) {
        pausedUntil.withLockedValue { paused in
            paused[credential] = max(paused[credential] ?? until, until)
        }
        metrics.credential(credential, paused: true)
    }

    /// When the pause of `credential` ends, if it is paused at `now`.
    public func pausedUntil(_ credential: String, at now: Date) -> Date? {
        pausedUntil.withLockedValue { paused in
            guard let until = paused[credential] else { return nil }
            if until <= now {
                paused[credential] = nil
                metrics.credential(credential, paused: false)
                return nil
            }
            return until
        }
    }

    /// Lifts the pause of `credential`: its key or certificate was just replaced.
    public func resume(_ credential: String) {
        let wasPaused = pausedUntil.withLockedValue { $0.removeValue(forKey: credential) != nil }
        if wasPaused { metrics.credential(credential, paused: false) }
    }

    /// Credentials paused at `now`, for health checks and metrics.
    public func pausedCredentials(at now: Date) -> [String] {
        pausedUntil.withLockedValue { paused in paused.filter { $0.value > now }.map(\.key).sorted() }
    }
}
