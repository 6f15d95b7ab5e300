import Foundation

/// Runs every end-to-end measurement, prints the figures and writes them as JSON for the plots.
struct WorkerReport: Codable {
    var machine: String
    var jobs: Int
    /// The round whose worker ÷ bare limit is the median: its runs.
    var bareLimit: WorkerBenchmark.Throughput?
    var brokerLimit: WorkerBenchmark.Throughput?
    var worker: WorkerBenchmark.Throughput?
    /// The round whose ratio is the median: its ceiling run.
    var ceiling: WorkerBenchmark.Throughput?
    /// Every round: the limit, the ceiling, then the worker, on the same number of jobs.
    var rounds: [Round] = []
    var sweep: [Sweep] = []
    var scaleOut: [ScaleOut] = []
    var latencies: [WorkerBenchmark.Latency] = []
    /// The same loads through the broker alone (the limit loop consuming): the latency the worker adds
    /// is the difference.
    var brokerLatencies: [WorkerBenchmark.Latency] = []
    /// 10,000 jobs in flight with 2 APNs connections: 2,000 on streams, the rest waiting for a slot.
    var memory: WorkerBenchmark.Throughput?
    /// 10,000 jobs in flight with 10 APNs connections: every one of them on a stream.
    var memoryAllOnStreams: WorkerBenchmark.Throughput?

    struct Round: Codable {
        /// `bench/bare-limit.c`: rabbitmq-c alone, the honest limit.
        let bare: WorkerBenchmark.Throughput
        /// The same loop through the project's AMQP client.
        let limit: WorkerBenchmark.Throughput
        /// The limit loop plus one HTTP/2 exchange per job with the mock: what any worker could reach here.
        let ceiling: WorkerBenchmark.Throughput
        let worker: WorkerBenchmark.Throughput
        var ratio: Double { worker.rate / limit.rate }
        var bareRatio: Double { worker.rate / bare.rate }
        /// The project's AMQP client's CPU per job over the bare C loop's.
        var clientCPURatio: Double { (limit.cpuMicrosecondsPerJob["limit loop"] ?? .nan) / (bare.cpuMicrosecondsPerJob["bare loop"] ?? .nan) }
        /// The broker's CPU per job when the worker drives it over when the bare C loop does.
        var brokerCPURatio: Double { (worker.cpuMicrosecondsPerJob["broker"] ?? .nan) / (bare.cpuMicrosecondsPerJob["broker"] ?? .nan) }
    }

    struct Sweep: Codable {
        let prefetch: Int
        let connections: Int
        let rate: Double
    }

    struct ScaleOut: Codable {
        let workers: Int
        let rate: Double
    }

    static func run(jobs: Int, rounds: Int, sweepJobs: Int, latencySeconds: Double, output: String) async throws {
        let bench = WorkerBenchmark()
        var report = WorkerReport(machine: Self.machine, jobs: jobs)
        func say(_ line: String) { FileHandle.standardOutput.write(Data((line + "\n").utf8)) }
        say("end-to-end: \(jobs) jobs pre-loaded, prefetch 500, 2 APNs connections, mock APNs and RabbitMQ on the same 2 cores; \(rounds) rounds")
        for round in 1...rounds {
            // The four back to back, so all see the same moment of a noisy machine.
            let bare = try await bench.bareLimit(count: jobs, prefetch: 500)
            let limit = try await bench.brokerLimit(count: jobs, prefetch: 500)
            // The ceiling that runs as the worker's single jobs do, on callbacks with no task: the
            // task-per-delivery ceiling (`throughput --with-ceiling`) is one the worker overtook.
            let ceiling = try await bench.ceilingOnCallbacks(count: jobs, prefetch: 500, connections: 2)
            let worker = try await bench.throughput(count: jobs, prefetch: 500, connections: 2)
            let result = Round(bare: bare, limit: limit, ceiling: ceiling, worker: worker)
            report.rounds.append(result)
            say(String(format: "  round %d: bare limit %.0f jobs/s, limit loop %.0f, ceiling %.0f, worker %.0f (peak RSS %.0f MiB): worker ÷ bare limit = %.2f, worker ÷ limit loop = %.2f, worker ÷ ceiling = %.2f", round, bare.rate, limit.rate, ceiling.rate, worker.rate, worker.peakRSSMiB ?? 0, result.bareRatio, result.ratio, worker.rate / ceiling.rate))
            say("    CPU µs per job: bare run \(WorkerBenchmark.describe(bare.cpuMicrosecondsPerJob)); limit run \(WorkerBenchmark.describe(limit.cpuMicrosecondsPerJob)); ceiling run \(WorkerBenchmark.describe(ceiling.cpuMicrosecondsPerJob)); worker run \(WorkerBenchmark.describe(worker.cpuMicrosecondsPerJob))")
        }
        let median = report.rounds.median(by: \.bareRatio)
        report.bareLimit = median.bare
        report.brokerLimit = median.limit
        report.ceiling = median.ceiling
        report.worker = median.worker
        func medianOf(_ figure: (Round) -> Double) -> Double { report.rounds.map(figure).median }
        say(String(format: "  medians over the rounds: worker ÷ bare limit = %.2f, worker ÷ limit loop = %.2f, ceiling ÷ limit loop = %.2f, worker ÷ ceiling = %.2f", medianOf(\.bareRatio), medianOf(\.ratio), medianOf { $0.ceiling.rate / $0.limit.rate }, medianOf { $0.worker.rate / $0.ceiling.rate }))
        say(String(format: "  CPU per job, medians: worker %.1f µs (target ≤ 25); AMQP client ÷ bare C loop %.2f (target ≤ 2); broker under the worker ÷ under the bare loop %.2f (target ≤ 1)", medianOf { $0.worker.cpuMicrosecondsPerJob["worker"] ?? .nan }, medianOf(\.clientCPURatio), medianOf(\.brokerCPURatio)))

        say("throughput vs prefetch and connections (\(sweepJobs) jobs each):")
        for connections in [1, 2, 4] {
            for prefetch in [100, 500, 2000] {
                let run = try await bench.throughput(count: sweepJobs, prefetch: prefetch, connections: connections)
                report.sweep.append(Sweep(prefetch: prefetch, connections: connections, rate: run.rate))
                say(String(format: "  connections %d, prefetch %4d: %.0f jobs/s", connections, prefetch, run.rate))
            }
        }

        say("scale-out on one queue (\(sweepJobs) jobs, prefetch 500 each):")
        for workers in [1, 2, 4] {
            let run = try await bench.throughput(count: sweepJobs, prefetch: 500, connections: 2, workers: workers)
            report.scaleOut.append(ScaleOut(workers: workers, rate: run.rate))
            say(String(format: "  %d worker process(es): %.0f jobs/s", workers, run.rate))
        }

        // The latency runs use prefetch 500 and 2 connections, so their maximum is that configuration's.
        let maximum = report.rounds.map(\.worker.rate).median
        say(String(format: "latency, enqueue → result, at fixed offered loads (maximum: the median worker rate above, %.0f jobs/s; %.0f s each):", maximum, latencySeconds))
        // A quarter is about the load issue 25's 7 ms was measured at (half of a slower worker); 35 %
        // is near what these cores carry with the publisher on them; a half is more than they do.
        for share in [0.25, 0.35, 0.5] {
            var run = try await bench.latency(rate: maximum * share, seconds: latencySeconds, prefetch: 500)
            run.share = share
            report.latencies.append(run)
            say(String(format: "  %2.0f%% (%.0f jobs/s): p50 %.1f ms, p99 %.1f ms, p99.9 %.1f ms (%d jobs)%@%@%@", share * 100, run.offeredRate, run.p50, run.p99, run.p999, run.jobs, run.keptText, run.busyText, share == 0.5 ? "  (target p99 ≤ 25 ms)" : ""))
            var broker = try await bench.brokerLatency(rate: maximum * share, seconds: latencySeconds, prefetch: 500)
            broker.share = share
            report.brokerLatencies.append(broker)
            say(String(format: "       the broker alone: p50 %.1f ms, p99 %.1f ms, p99.9 %.1f ms%@%@", broker.p50, broker.p99, broker.p999, broker.keptText, broker.busyText))
        }

        say("memory with 10,000 jobs in flight (prefetch 10,000, APNs answering after 2 s):")
        let slow = ["--faults", #"{"latency":{"fixed":{"milliseconds":2000}}}"#]
        let memory = try await bench.throughput(count: 30_000, prefetch: 10_000, connections: 2, mockArguments: slow)
        report.memory = memory
        say(String(format: "  2 APNs connections (2,000 on streams, 8,000 waiting for a slot): worker peak RSS %.1f MiB (target ≤ 48 MiB)", memory.peakRSSMiB ?? 0))
        let wide = try await bench.throughput(count: 30_000, prefetch: 10_000, connections: 10, mockArguments: slow)
        report.memoryAllOnStreams = wide
        say(String(format: "  10 APNs connections (all 10,000 on streams): worker peak RSS %.1f MiB", wide.peakRSSMiB ?? 0))

        try FileManager.default.createDirectory(atPath: output, withIntermediateDirectories: true)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        try encoder.encode(report).write(to: URL(fileURLWithPath: output).appendingPathComponent("worker.json"))
        say("figures written to \(output)/worker.json")
    }

    static var machine: String {
        let cores = ProcessInfo.processInfo.activeProcessorCount
        let memory = ProcessInfo.processInfo.physicalMemory / (1 << 30)
        return "\(cores) cores, \(memory) GiB"
    }
}
