import AMQP
import Worker

/// Enqueue → result latencies read from a results queue, as the worker reports them (`latency_ms`).
enum ResultLatencies {
    /// Consumes `queue` until `count` results that `counts` accepts have come, acking every one, and
    /// returns their median, 99th percentile and number.
    static func collect(
        from client: AMQPClient, queue: String, count: Int, counting counts: (JobResult) -> Bool
    ) async throws -> (p50: Double, p99: Double, count: Int) {
        var latencies: [Double] = []
        let results = try await client.consume(queue: queue, prefetch: 2000)
        for await delivery in results {
            if let result = try? JobResult.decode(delivery.message.body), counts(result), let latency = result.latencyMS {
                latencies.append(Double(latency))
            }
            await client.ack(delivery)
            if latencies.count >= count { break }
        }
        await client.cancelConsuming()
        let sorted = latencies.sorted()
        return (sorted[sorted.count / 2], sorted[min(sorted.count - 1, sorted.count * 99 / 100)], sorted.count)
    }
}
