import AMQP
import NIOConcurrencyHelpers
import Worker

/// Publication → result latencies as a producer sees them: from the moment a job is handed to the
/// broker to the moment its result arrives on the results queue, on this process's clock with
/// microsecond resolution. The worker's own `latency_ms` is whole milliseconds from a millisecond
/// stamp, so a p99 of 2 ms alone and 4 ms under load could be a ratio anywhere from 1 to 5.
enum ResultLatencies {
    /// When each job, by its index, was handed to the broker.
    final class PublishTimes: Sendable {
        private let times = NIOLockedValueBox<[Int: ContinuousClock.Instant]>([:])

        /// Notes that job `index` is being handed to the broker now.
        func record(_ index: Int) {
            let now = ContinuousClock.now
            times.withLockedValue { $0[index] = now }
        }

        /// When job `index` was handed to the broker, if it was.
        func time(of index: Int) -> ContinuousClock.Instant? {
            times.withLockedValue { $0[index] }
        }
    }

    /// What one timed run saw.
    struct Timed {
        /// Each counted result: when its job was published, how long until its result came (ms), and
        /// the worker's own `latency_ms` (publication to the result's publishing, whole milliseconds).
        var samples: [(published: ContinuousClock.Instant, milliseconds: Double, workerMilliseconds: Double?)] = []
        /// When each result that `marking` picked came (a backlog's, say).
        var marks: [ContinuousClock.Instant] = []

        /// The same run cut to the jobs published before `instant` (those a backlog was still ahead of).
        func published(before instant: ContinuousClock.Instant) -> Timed {
            Timed(samples: samples.filter { $0.published < instant }, marks: marks)
        }

        /// The percentiles of the samples' latencies.
        func summary() -> LatencySummary {
            LatencySummary(samples.map(\.milliseconds))
        }

        /// The same of the worker's `latency_ms`: what of the latency is spent before the result
        /// leaves the worker, the rest being the broker's and this consumer's.
        func workerSummary() -> LatencySummary {
            LatencySummary(samples.compactMap(\.workerMilliseconds))
        }
    }

    /// Consumes `queue` on `consumer` while `publish` runs, until `count` results that `counts`
    /// accepts have come, acking every result. A counted result's job index is the number after the
    /// last `-` of its id. Throws when they have not all come within `timeout` (a worker that died).
    static func timed(
        consumer: AMQPClient, queue: String, count: Int, counting counts: @escaping @Sendable (JobResult) -> Bool,
        marking marks: @escaping @Sendable (JobResult) -> Bool = { _ in false }, timeout: Duration = .seconds(600),
        publish: @escaping @Sendable (PublishTimes) async throws -> Void
    ) async throws -> Timed {
        let times = PublishTimes()
        let results = try await consumer.consume(queue: queue, prefetch: 2000)
        let publishing = Task {
            do { try await publish(times) } catch {
                await consumer.cancelConsuming()  // ends the wait below, which then rethrows this
                throw error
            }
        }
        let deadline = Task {
            guard (try? await Task.sleep(for: timeout)) != nil else { return }
            await consumer.cancelConsuming()  // ends the wait below short of `count`
        }
        defer { deadline.cancel() }
        var timed = Timed()
        timed.samples.reserveCapacity(count)
        for await delivery in results {
            let arrived = ContinuousClock.now
            if let result = try? JobResult.decode(delivery.message.body) {
                if counts(result), let index = result.id?.split(separator: "-").last.flatMap({ Int($0) }), let sent = times.time(of: index) {
                    timed.samples.append((sent, (arrived - sent) / .milliseconds(1), result.latencyMS.map(Double.init)))
                } else if marks(result) {
                    timed.marks.append(arrived)
                }
            }
            await consumer.ack(delivery)
            if timed.samples.count >= count { break }
        }
        await consumer.cancelConsuming()
        try await publishing.value
        guard timed.samples.count >= count else {
            throw BenchError("\(timed.samples.count) of \(count) timed results arrived on \(queue) within \(timeout)")
        }
        return timed
    }
}
