import AMQP
import ArgumentParser
import Foundation
import Logging
import NIOConcurrencyHelpers
import Worker
import WorkerConfiguration

/// `apns-worker results`: reads the results queue and prints a summary, or each result with `--json`.
/// It leaves what it read in the queue unless told to `--drain` it: a shared results queue is other
/// consumers' input.
struct ResultsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "results",
        abstract: "Read results and print counts by status and reason, latency percentiles and throughput (or each result with --json).",
        discussion: """
            Without --drain every result read is handed back to the queue at the end (on RabbitMQ 4.x each \
            look counts as a delivery of the message). For dead letters use `apns-worker dead-letters list`.
            """
    )

    @OptionGroup var options: ConfigOptions
    @Option(help: "Stop after this many results.") var expect: Int?
    @Option(help: "Stop when no result arrived for this many seconds.") var idleTimeout: Double = 15
    @Option(help: "The queue to read (default: topology.results_queue).") var queue: String?
    @Flag(help: "Remove what is read from the queue (acknowledge it); without it, results are handed back.") var drain = false
    @Flag(help: "Print each result as one JSON line (as published) instead of the summary.") var json = false

    /// Results held at once while reading without --drain: they are all unacknowledged until handed back.
    static let peekLimit = 10_000

    func validate() throws {
        if let expect, expect < 1 { throw ValidationError("--expect must be 1 or more") }
        if !drain, let expect, expect > Self.peekLimit {
            throw ValidationError("--expect above \(Self.peekLimit) needs --drain: without it every result read stays unacknowledged until the end")
        }
    }

    func run() async throws {
        let settings = try options.settings()
        WorkerLogging.bootstrap(settings.log)
        guard let queue = queue ?? settings.topology.resultsQueue else {
            throw ValidationError("no results queue: pass --queue or set topology.results_queue")
        }
        let amqp = AMQPClient(options: try settings.amqp.clientOptions(), logger: Logger(label: "apns.results"))
        try await amqp.connect()
        let prefetch = drain ? 1000 : min(expect ?? Self.peekLimit, Self.peekLimit)
        let deliveries = try await amqp.consume(queue: queue, prefetch: UInt16(prefetch))
        let progress = Progress()
        let reader = Task { [drain, json] in
            for await delivery in deliveries {
                if json { print(String(decoding: delivery.message.body, as: UTF8.self)) }
                progress.add(try? JobResult.decode(delivery.message.body), holding: drain ? nil : delivery)
                if drain { await amqp.ack(delivery) }
            }
        }
        let idle = Duration.milliseconds(Int64(idleTimeout * 1000))
        while !(expect.map { progress.count >= $0 } ?? false), ContinuousClock.now - progress.lastArrival < idle {
            try await Task.sleep(for: .milliseconds(100))
        }
        // The consumer first: results handed back to a consumer still open would come straight back.
        // Its cancel ends the stream once confirmed; the reader then takes (and with --drain acks) what
        // it still holds and ends. Cancelling the reader instead could leave a result counted and
        // printed but never acked, to be read again by the next reader.
        await amqp.cancelConsuming()
        await reader.value
        let held = progress.takeHeld()
        for delivery in held { await amqp.reject(delivery, requeue: true) }
        await amqp.close()
        let summary = progress.summary
        if !json { print(summary.report()) }
        let fate = drain ? "removed from \(queue)" : "left in \(queue) (--drain removes them)"
        FileHandle.standardError.write(Data("\(summary.count) result(s) read, \(fate)\(!drain && summary.count >= prefetch ? "; at most \(prefetch) can be read without --drain" : "")\n".utf8))
        if let expect, summary.count < expect { throw ExitCode(1) }
    }
}

/// The summary so far, when the last result came, and the deliveries to hand back; shared by the
/// reader task and the waiting loop.
private final class Progress: Sendable {
    private let state = NIOLockedValueBox((summary: ResultSummary(), lastArrival: ContinuousClock.now, held: [AMQPDelivery]()))

    var count: Int { state.withLockedValue { $0.summary.count } }
    var lastArrival: ContinuousClock.Instant { state.withLockedValue { $0.lastArrival } }
    var summary: ResultSummary { state.withLockedValue { $0.summary } }

    func add(_ result: JobResult?, holding delivery: AMQPDelivery?) {
        state.withLockedValue { state in
            state.summary.add(result)
            state.lastArrival = ContinuousClock.now
            if let delivery { state.held.append(delivery) }
        }
    }

    func takeHeld() -> [AMQPDelivery] {
        state.withLockedValue { state in
            defer { state.held = [] }
            return state.held
        }
    }
}
