import Foundation

/// Runs every end-to-end measurement, prints the figures and writes them as JSON for the plots.
struct WorkerReport: Codable {
    var machine: String
    var jobs: Int
    var brokerLimit: WorkerBenchmark.Throughput?
    var worker: WorkerBenchmark.Throughput?
    var sweep: [Sweep] = []
    var scaleOut: [ScaleOut] = []
    var latencies: [WorkerBenchmark.Latency] = []
    var memory: WorkerBenchmark.Throughput?

    struct Sweep: Codable {
        let prefetch: Int
        let connections: Int
        let rate: Double
    }

    struct ScaleOut: Codable {
        let workers: Int
        let rate: Double
    }

    static func run(jobs: Int, sweepJobs: Int, latencySeconds: Double, output: String) async throws {
        let bench = WorkerBenchmark()
        var report = WorkerReport(machine: Self.machine, jobs: jobs)
        func say(_ line: String) { FileHandle.standardOutput.write(Data((line + "\n").utf8)) }
        say("end-to-end: \(jobs) jobs pre-loaded, prefetch 500, 2 APNs connections, mock APNs and RabbitMQ on the same 2 cores")
        let limit = try await bench.brokerLimit(count: jobs, prefetch: 500)
        report.brokerLimit = limit
        say(String(format: "  broker limit (consume → publish result with confirm → ack): %.0f jobs/s", limit.rate))
        let worker = try await bench.throughput(count: jobs, prefetch: 500, connections: 2)
        report.worker = worker
        say(String(format: "  worker: %.0f jobs/s, peak RSS %.0f MiB; worker ÷ limit = %.2f (target ≥ 0.80)", worker.rate, worker.peakRSSMiB ?? 0, worker.rate / limit.rate))

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

        let maximum = max(worker.rate, report.sweep.map(\.rate).max() ?? 0)
        say(String(format: "latency, enqueue → result, at fixed offered loads (maximum measured: %.0f jobs/s; %.0f s each):", maximum, latencySeconds))
        for share in [0.25, 0.5, 0.75] {
            let run = try await bench.latency(rate: maximum * share, seconds: latencySeconds, prefetch: 500)
            report.latencies.append(run)
            say(String(format: "  %2.0f%% (%.0f jobs/s): p50 %.1f ms, p99 %.1f ms, p99.9 %.1f ms (%d jobs)%@", share * 100, run.offeredRate, run.p50, run.p99, run.p999, run.jobs, share == 0.5 ? "  (target p99 ≤ 25 ms)" : ""))
        }

        say("memory with 10,000 jobs in flight (prefetch 10,000, APNs answering after 2 s):")
        let memory = try await bench.throughput(count: 30_000, prefetch: 10_000, connections: 2, mockArguments: ["--faults", #"{"latency":{"fixed":{"milliseconds":2000}}}"#])
        report.memory = memory
        say(String(format: "  worker peak RSS %.1f MiB (target ≤ 64 MiB)", memory.peakRSSMiB ?? 0))

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
