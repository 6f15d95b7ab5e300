import NIOConcurrencyHelpers

/// The job ids this process has at APNs right now (sent or about to be, outcome not yet settled), so a
/// redelivery can wait for its first delivery instead of pushing again.
///
/// When a connection or channel closes, the broker requeues every unacked delivery at once and
/// redelivers them within milliseconds, while their first deliveries may still be waiting for APNs.
/// A redelivery that overtakes its first delivery finds nothing in ``AnsweredOutcomes`` yet and would
/// push the notification a second time; waiting here until the first one's outcome is remembered lets
/// it publish that outcome instead. Keyed by job id only: two different jobs sharing an id merely wait
/// for each other.
final class JobsAtAPNs: Sendable {
    private struct Entry {
        /// Deliveries of this job id between ``begin(_:)`` and ``end(_:)``.
        var running = 0
        var waiters: [CheckedContinuation<Void, Never>] = []
    }

    private let entries = NIOLockedValueBox([String: Entry]())

    /// A delivery of `jobID` is going to APNs; its outcome is settled (acked or remembered) by ``end(_:)``.
    func begin(_ jobID: String) {
        entries.withLockedValue { $0[jobID, default: Entry()].running += 1 }
    }

    /// A delivery of `jobID` has its outcome settled: wakes the deliveries waiting for it once no other
    /// delivery of the job is at APNs.
    func end(_ jobID: String) {
        let waiters = entries.withLockedValue { entries -> [CheckedContinuation<Void, Never>] in
            guard var entry = entries[jobID] else { return [] }
            entry.running -= 1
            guard entry.running == 0 else {
                entries[jobID] = entry
                return []
            }
            entries[jobID] = nil
            return entry.waiters
        }
        for waiter in waiters { waiter.resume() }
    }

    /// Redeliveries of `jobID` waiting in ``waitUntilSettled(_:)`` right now.
    func waiting(for jobID: String) -> Int {
        entries.withLockedValue { $0[jobID]?.waiters.count ?? 0 }
    }

    /// Returns at once when no delivery of `jobID` is at APNs; otherwise when the last one has ended.
    /// True when it waited.
    @discardableResult
    func waitUntilSettled(_ jobID: String) async -> Bool {
        guard entries.withLockedValue({ $0[jobID] != nil }) else { return false }
        await withCheckedContinuation { continuation in
            let settled = entries.withLockedValue { entries -> Bool in
                guard entries[jobID] != nil else { return true }
                entries[jobID]!.waiters.append(continuation)
                return false
            }
            if settled { continuation.resume() }
        }
        return true
    }
}
