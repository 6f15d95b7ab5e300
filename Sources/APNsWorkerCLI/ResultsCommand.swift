import AMQP
import ArgumentParser
import Foundation
import Logging
import Worker
import WorkerConfiguration
import NIOConcurrencyHelpers

/// `apns-worker results`: drains the results queue and prints a summary (the demo's report).
struct ResultsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "results",
        abstract: "Consume results and print counts by status and reason, latency percentiles and throughput."
    )

    @OptionGroup var options: ConfigOptions
    @Option(help: "Stop after this many results.") var expect: Int?
    @Option(help: "Stop when no result arrived for this many seconds.") var idleTimeout: Double = 15
    @Option(help: "The queue to drain (default: topology.results_queue).") var queue: String?
    @Flag(help: "Drain the dead-letter queue instead, counting by the code in each message's last-error header.") var deadLetters = false

    func run() async throws {
        let settings = try options.settings()
        WorkerLogging.bootstrap(settings.log)
        guard let queue = queue ?? (deadLetters ? settings.topology.deadQueue : settings.topology.resultsQueue) else {
            throw ValidationError("no results queue: pass --queue or set topology.results_queue")
        }
        let amqp = AMQPClient(options: try settings.amqp.clientOptions(), logger: Logger(label: "apns.results"))
        try await amqp.connect()
        let deliveries = try await amqp.consume(queue: queue, prefetch: 1000)
        let progress = Progress()
        let reader = Task {
            for await delivery in deliveries {
                if deadLetters {
                    guard case .string(let error) = delivery.message.properties.headers["last-error"] else {
                        progress.addDeadLetter(lastError: nil)
                        await amqp.ack(delivery)
                        continue
                    }
                    progress.addDeadLetter(lastError: error)
                } else {
                    progress.add(try? JobResult.decode(delivery.message.body))
                }
                await amqp.ack(delivery)
            }
        }
        let idle = Duration.milliseconds(Int64(idleTimeout * 1000))
        while !(expect.map { progress.count >= $0 } ?? false), ContinuousClock.now - progress.lastArrival < idle {
            try await Task.sleep(for: .milliseconds(100))
        }
        await amqp.cancelConsuming()
        reader.cancel()
        await amqp.close()
        let summary = progress.summary
        print(summary.report())
        if let expect, summary.count < expect { throw ExitCode(1) }
    }
}

/// The summary so far and when the last result came, shared by the reader task and the waiting loop.
private final class Progress: Sendable {
    private let state = NIOLockedValueBox((summary: ResultSummary(), lastArrival: ContinuousClock.now))

    var count: Int { state.withLockedValue { $0.summary.count } }
    var lastArrival: ContinuousClock.Instant { state.withLockedValue { $0.lastArrival } }
    var summary: ResultSummary { state.withLockedValue { $0.summary } }

    func add(_ result: JobResult?) {
        state.withLockedValue { state in
            state.summary.add(result)
            state.lastArrival = ContinuousClock.now
        }
    }

    func addDeadLetter(lastError: String?) {
        state.withLockedValue { state in
            state.summary.addDeadLetter(lastError: lastError)
            state.lastArrival = ContinuousClock.now
        }
    }
}
