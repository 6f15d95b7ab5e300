import Foundation
import Synchronization
import NIOConcurrencyHelpers

/// What was decided for jobs APNs already answered but whose publications the broker did not confirm
/// (results exchange or queue missing, connection lost), so that their redeliveries publish the same
/// outcome again instead of pushing the notification again.
///
/// Without it every redelivery of such a job re-sent the push: 50 jobs with nowhere to put their
/// results made 1,050 APNs requests before the delivery limit dead-lettered them, and a device could
/// show the same notification 21 times. Only this process remembers, so a redelivery that reaches
/// another worker is pushed again (at-least-once, as before). Bounded in count and age.
final class UnsettledOutcomes: Sendable {
    /// One job's delivery: its id, the attempts before it, and its body's hash (a job re-published
    /// with different content is a different job).
    struct Key: Hashable, Sendable {
        let jobID: String
        let previousAttempts: Int
        let bodyHash: Int

        init(jobID: String, previousAttempts: Int, body: [UInt8]) {
            self.jobID = jobID
            self.previousAttempts = previousAttempts
            var hasher = Hasher()
            body.withUnsafeBytes { hasher.combine(bytes: $0) }
            bodyHash = hasher.finalize()
        }

        /// The key of a delivery of `job` whose message body is `body`.
        init(_ job: Job, body: [UInt8]) {
            self.init(jobID: job.id, previousAttempts: job.previousAttempts, body: body)
        }
    }

    private struct Entry {
        let publications: [Publication]
        let rememberedAt: ContinuousClock.Instant
    }

    private struct State {
        var entries: [Key: Entry] = [:]
        /// Keys in the order they were remembered, for evicting the oldest.
        var order: [Key] = []
    }

    let capacity: Int
    let maximumAge: Duration
    private let state = NIOLockedValueBox(State())
    /// `state.entries.count`, readable without the lock: nearly always 0, and then jobs skip the lookup.
    private let size = Atomic(0)

    init(capacity: Int = 10_000, maximumAge: Duration = .seconds(600)) {
        self.capacity = capacity
        self.maximumAge = maximumAge
    }

    /// How many outcomes are remembered now.
    var count: Int { size.load(ordering: .relaxed) }

    /// Keeps `publications` for `key` until ``forget(_:)``, the age limit, or eviction by newer ones.
    func remember(_ key: Key, _ publications: [Publication]) {
        let now = ContinuousClock.now
        state.withLockedValue { state in
            if state.entries.updateValue(Entry(publications: publications, rememberedAt: now), forKey: key) == nil {
                state.order.append(key)
            }
            while state.entries.count > capacity, !state.order.isEmpty {
                state.entries[state.order.removeFirst()] = nil
            }
            size.store(state.entries.count, ordering: .relaxed)
        }
    }

    /// The outcome remembered for `key`, if it is young enough.
    func outcome(for key: Key) -> [Publication]? {
        let now = ContinuousClock.now
        return state.withLockedValue { state in
            guard let entry = state.entries[key] else { return nil }
            guard now - entry.rememberedAt <= maximumAge else {
                state.entries[key] = nil
                state.order.removeAll { $0 == key }
                size.store(state.entries.count, ordering: .relaxed)
                return nil
            }
            return entry.publications
        }
    }

    /// The broker confirmed the job's publications: nothing left to remember.
    func forget(_ key: Key) {
        state.withLockedValue { state in
            guard state.entries.removeValue(forKey: key) != nil else { return }
            state.order.removeAll { $0 == key }
            size.store(state.entries.count, ordering: .relaxed)
        }
    }
}
