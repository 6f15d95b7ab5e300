import AMQP
import NIOConcurrencyHelpers
import NIOCore

/// The outcomes of jobs APNs answered, so that a redelivery of one publishes the same outcome again
/// instead of pushing the notification a second time.
///
/// A job comes back whenever the broker did not take its outcome (a publication returned, or nacked
/// through every republish) or never got its ack (the connection, or the node holding it, died after
/// the ack was written). Remembering only the first case, 3 of 8 cluster runs in which the node holding
/// the worker's connection was killed pushed jobs twice (up to 29) while the worker process lived: their
/// acks were lost with the node. And before any of it, 50 jobs with nowhere to put their results made
/// 1,050 APNs requests. So every answered job is remembered, for as long as a redelivery can come back.
///
/// Only redeliveries look here, retry copies (the broker's at-least-once dead-lettering from a tier
/// hands a copy back twice when the tier's leader dies before confirming it: 6 pushes repeated in a
/// 4.0 `cluster-retries-dead-letters` run), and dead letters an operator replayed, when APNs had
/// accepted them (a replayed failure is a request for another try): a job its producer publishes
/// again is a new push.
/// Only this process
/// remembers, so a redelivery that reaches another worker is pushed again (at-least-once). Bounded by
/// bytes and by age, the oldest going first: a lost ack's redelivery comes back first in the queue
/// right after the reconnect, before newer answers can push its outcome out.
final class AnsweredOutcomes: Sendable {
    /// One job's delivery: its id, the attempts before it, the retry copy it is (if any), and its
    /// body, by hash (a job re-published with different content is a different job).
    struct Key: Hashable, Sendable {
        let jobID: String
        let previousAttempts: Int
        /// The `retry-copy` header: a copy postponed with unchanged counts (a paused credential) is
        /// still a different copy from the delivery that postponed it.
        let retryCopy: String?
        /// The body and the fields above, digested once when the key is made (``ContentDigest``): the
        /// table hashes a key on every insert, lookup and eviction, and hashing the job id again each
        /// time was 2,000 instructions a job (`scripts/bench-instructions.sh`). Equality compares it
        /// and every field.
        private let digest: Int

        init(jobID: String, previousAttempts: Int, retryCopy: String? = nil, body: [UInt8]) {
            self.jobID = jobID
            self.previousAttempts = previousAttempts
            self.retryCopy = retryCopy
            var content = ContentDigest()
            body.withUnsafeBytes { content.combine($0) }
            content.combine(jobID)
            content.combine(previousAttempts)
            content.combine(retryCopy)
            digest = content.value
        }

        /// The key of a delivery of the job `jobID` whose message is `message`.
        init(jobID: String, previousAttempts: Int, message: AMQPMessage) {
            self.init(jobID: jobID, previousAttempts: previousAttempts, retryCopy: RetryHeaders.copy(of: message), body: message.body)
        }

        func hash(into hasher: inout Hasher) {
            hasher.combine(digest)
        }

        static func == (left: Key, right: Key) -> Bool {
            left.digest == right.digest && left.previousAttempts == right.previousAttempts
                && left.jobID == right.jobID && left.retryCopy == right.retryCopy
        }
    }

    /// What was decided for a delivery, and whether APNs accepted a push of it.
    struct Outcome {
        let publications: [Publication]
        let accepted: Bool
    }

    /// When an outcome was remembered: the time since ``origin``. `ContinuousClock.Instant` is not a
    /// frozen type, so every copy and comparison of one in this table went through its metadata, on
    /// every job; `Duration` is frozen and copies as two integers.
    private typealias Stamp = Duration

    private struct Entry {
        let outcome: Outcome
        let rememberedAt: Stamp
        let bytes: Int
    }

    private struct State {
        var entries: [Key: Entry] = [:]
        /// Keys in the order they were remembered, with when: a key remembered again has a newer stamp
        /// in `entries`, and its older place here is skipped.
        var order = CircularBuffer<(key: Key, at: Stamp)>()
        var bytes = 0
    }

    /// Bytes kept at most, as allocated (``footprint(of:key:)``).
    let budget: Int
    let maximumAge: Duration
    private let state = NIOLockedValueBox(State())
    /// What stamps count from (``Stamp``); an earlier `now`, as tests pass, makes a negative one.
    private let origin: ContinuousClock.Instant

    /// 8 MiB hold some 8,000 single-job results (about 1 KB each with a 36-character job id), sixteen
    /// windows of the default prefetch.
    init(budget: Int = 8 << 20, maximumAge: Duration = .seconds(600)) {
        self.budget = budget
        self.maximumAge = maximumAge
        origin = .now
    }

    /// How many outcomes are remembered, and their bytes.
    var count: Int { state.withLockedValue { $0.entries.count } }
    var bytes: Int { state.withLockedValue { $0.bytes } }

    /// Keeps `publications` for `key`, dropping the oldest outcomes beyond the budget or the age limit.
    func remember(_ key: Key, _ publications: [Publication], now: ContinuousClock.Instant = .now) {
        let bytes = Self.footprint(of: publications, key: key)
        let accepted = publications.contains { publication in
            if case .result(let status, _, _) = publication.kind { status == JobStatus.delivered.rawValue || status == JobStatus.partial.rawValue } else { false }
        }
        let now = origin.duration(to: now)
        let entry = Entry(outcome: Outcome(publications: publications, accepted: accepted), rememberedAt: now, bytes: bytes)
        state.withLockedValue { state in
            if let replaced = state.entries.updateValue(entry, forKey: key) {
                state.bytes -= replaced.bytes
            }
            state.bytes += bytes
            state.order.append((key, now))
            while let oldest = state.order.first, state.bytes > budget || now - oldest.at > maximumAge {
                state.order.removeFirst()
                // Only the key's newest place in the order removes it.
                guard let entry = state.entries[oldest.key], entry.rememberedAt == oldest.at else { continue }
                state.entries[oldest.key] = nil
                state.bytes -= entry.bytes
            }
        }
    }

    /// What remembering `publications` under `key` takes, as allocated: the table's and the order's
    /// slots (each kept at most three-quarters full, and doubled when it grows: about two slots per
    /// entry), the array, each publication object, each body's buffer and each string too long to be
    /// stored inline, with the allocator's header and rounding.
    ///
    /// A count of bodies and routes plus 256 bytes for the rest held 14 MiB of RSS under a budget of
    /// 8 (`apns-bench memory --in-flight 10000`, against a build that remembers nothing).
    static func footprint(of publications: [Publication], key: Key) -> Int {
        var bytes = 2 * (MemoryLayout<Key>.stride + MemoryLayout<Entry>.stride + MemoryLayout<(key: Key, at: Stamp)>.stride)
        bytes += allocation(32 + publications.count * MemoryLayout<Publication>.stride)
        bytes += heapBytes(of: key.jobID) + heapBytes(of: key.retryCopy)
        for publication in publications {
            let message = publication.message
            let properties = message.properties
            // Its count, not its capacity: Swift sets an array's capacity from the block malloc
            // handed out, which varies from run to run, so equal entries weighed differently (the
            // budget test that compares them failed in one of four runs). `allocation` adds
            // malloc's rounding.
            // The publication itself: an object of its own since it became a class.
            bytes += allocation(Publication.instanceBytes)
            bytes += allocation(32 + message.body.count)
            bytes += heapBytes(of: publication.exchange) + heapBytes(of: publication.routingKey)
            bytes += heapBytes(of: properties.contentType) + heapBytes(of: properties.correlationID)
            bytes += heapBytes(of: properties.type) + heapBytes(of: properties.appID)
            if !properties.headers.isEmpty {
                // The table (two slots per entry, as above), its keys, and an allowance for values.
                bytes += allocation(64 + 2 * properties.headers.count * (MemoryLayout<String>.stride + MemoryLayout<AMQPFieldValue>.stride))
                bytes += properties.headers.keys.reduce(0) { $0 + heapBytes(of: $1) + 32 }
            }
        }
        return bytes
    }

    /// glibc's malloc: an 8-byte header, rounded up to 16 bytes.
    private static func allocation(_ size: Int) -> Int {
        (size + 8 + 15) & ~15
    }

    /// A string's own buffer (none for an absent one): Swift stores up to 15 UTF-8 bytes inline.
    private static func heapBytes(of text: String?) -> Int {
        guard let count = text?.utf8.count, count > 15 else { return 0 }
        return allocation(32 + count)
    }

    /// The outcome remembered for `key`, if it is young enough.
    func outcome(for key: Key, now: ContinuousClock.Instant = .now) -> Outcome? {
        let now = origin.duration(to: now)
        return state.withLockedValue { state in
            guard let entry = state.entries[key], now - entry.rememberedAt <= maximumAge else { return nil }
            return entry.outcome
        }
    }
}
