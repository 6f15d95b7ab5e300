import AMQP
import Foundation
import Worker
import WorkerConfiguration

/// The end-to-end measurements: the worker against the broker's own limit, latency at fixed loads,
/// scale-out, and memory with many jobs in flight.
struct WorkerBenchmark {
    struct Throughput: Codable {
        let jobs: Int
        let seconds: Double
        var rate: Double { Double(jobs) / seconds }
        var peakRSSMiB: Double?
        /// CPU per job, in microseconds, of each process that shared the cores during the run: the
        /// broker, the worker(s) (or the limit loop), the mock APNs.
        var cpuMicrosecondsPerJob: [String: Double] = [:]
    }

    /// CPU seconds used between `start()` and `perJob(_:)`, by process.
    struct CPUMeter {
        private var started: [String: Double] = [:]
        private var pids: [String: [Int32]] = [:]

        /// Starts counting `pids` under `name` (their CPU so far is subtracted).
        mutating func start(_ name: String, pids: [Int32]) {
            self.pids[name] = pids
            started[name] = pids.compactMap(ProcFS.cpuSeconds).reduce(0, +)
        }

        /// Microseconds of CPU per job since `start`, by name.
        func perJob(_ jobs: Int) -> [String: Double] {
            pids.reduce(into: [:]) { result, entry in
                let used = entry.value.compactMap(ProcFS.cpuSeconds).reduce(0, +) - (started[entry.key] ?? 0)
                result[entry.key] = used * 1e6 / Double(jobs)
            }
        }

        /// A meter counting, from now, the broker, this process (as `loop`) and the mock (idle in the
        /// limit run): a loop answering the jobs of `environment` in the benchmark's own process.
        static func started(loop: String, environment: BenchEnvironment) -> CPUMeter {
            var cpu = CPUMeter()
            cpu.start("broker", pids: ProcFS.brokerPID.map { [$0] } ?? [])
            cpu.start(loop, pids: [getpid()])
            cpu.start("mock", pids: [environment.mock.process.processIdentifier])
            return cpu
        }
    }

    /// Pre-loads `count` jobs, starts `workers` worker processes, and times until all are acked (which
    /// happens only after their results are confirmed by the broker).
    func throughput(
        count: Int, prefetch: Int, connections: Int, workers: Int = 1, mockArguments: [String] = [],
        body: (Int) -> [UInt8] = JobLoader.body(index:), logLevel: LogSection.Level = .error
    ) async throws -> Throughput {
        let environment = try BenchEnvironment(prefetch: prefetch, connections: connections, mockArguments: mockArguments)
        let loader = try await environment.client("loader")
        try await JobLoader.load(count, into: loader, topology: environment.settings.topology, body: body)
        await loader.close()
        let started = ContinuousClock.now
        let processes = try (0..<workers).map { _ in try WorkerProcess(settings: environment.settings, logLevel: logLevel) }
        var cpu = CPUMeter()
        cpu.start("broker", pids: ProcFS.brokerPID.map { [$0] } ?? [])
        cpu.start("worker", pids: processes.map(\.process.processIdentifier))
        cpu.start("mock", pids: [environment.mock.process.processIdentifier])
        let peak = try await Self.waitUntilAcked(count, by: processes, since: started)
        let seconds = (ContinuousClock.now - started).seconds
        let cpuPerJob = cpu.perJob(count)
        for process in processes { process.stop() }
        await environment.tearDown()
        return Throughput(jobs: count, seconds: seconds, peakRSSMiB: peak, cpuMicrosecondsPerJob: cpuPerJob)
    }

    /// Polls the workers' metrics until they acked `count` jobs together (at most 10 minutes; a worker
    /// that exits ends it); returns the highest peak RSS seen, in MiB.
    static func waitUntilAcked(_ count: Int, by processes: [WorkerProcess], since started: ContinuousClock.Instant) async throws -> Double {
        var peak = 0.0
        while true {
            let acked = processes.reduce(0) { $0 + ($1.acked() ?? 0) }
            peak = max(peak, processes.compactMap(\.peakRSSMiB).max() ?? 0)
            if acked >= count { return peak }
            for process in processes { try process.checkRunning() }
            guard ContinuousClock.now - started < .seconds(600) else { throw BenchError("only \(acked) of \(count) jobs done after 10 minutes") }
            try await Task.sleep(for: .milliseconds(50))
        }
    }

    /// The broker's own limit on this machine: the same jobs consumed with the same prefetch, a result
    /// of the same size published with confirms, then the ack — no HTTP/2, no APNs — by the project's
    /// AMQP client in a process of its own (`apns-bench limit-loop`), as the bare C loop runs in its own;
    /// under `wrapper` (a command that takes the loop's as its arguments) when given.
    func brokerLimit(count: Int, prefetch: Int, wrapper: [String] = []) async throws -> Throughput {
        let environment = try BenchEnvironment(prefetch: prefetch, connections: 1)
        let loader = try await environment.client("loader")
        try await JobLoader.load(count, into: loader, topology: environment.settings.topology)
        await loader.close()
        let topology = environment.settings.topology
        let command = [CommandLine.arguments[0], "limit-loop", "--url", environment.brokerURL, "--queue", topology.jobsQueue,
                       "--exchange", topology.resultsExchange, "--count", String(count), "--prefetch", String(prefetch)]
        var (text, status, cpuPerJob) = try await LoopProcess.run(command, wrapper: wrapper, name: "limit loop", jobs: count)
        let fields = text.split(separator: " ").compactMap { Double($0.trimmingCharacters(in: .whitespacesAndNewlines)) }
        guard status == 0, fields.count == 2 else {
            throw BenchError("the limit loop failed (exit \(status)): \(text)")
        }
        let seconds = fields[0]
        // Its own account, from consuming to the last answer confirmed, as the bare C loop's.
        cpuPerJob["limit loop"] = fields[1] * 1e6 / Double(count)
        await environment.tearDown()
        return Throughput(jobs: count, seconds: seconds, cpuMicrosecondsPerJob: cpuPerJob)
    }

    /// Consumes the `count` pre-loaded jobs, running `answer` on each concurrently, timed and with the
    /// CPU per job of the broker, this process (as `loop`) and the mock; then stops and tears down.
    static func answer(
        _ count: Int, on client: AMQPClient, in environment: BenchEnvironment, loop: String,
        _ answer: @escaping @Sendable (AMQPDelivery) async -> Void
    ) async throws -> Throughput {
        let started = ContinuousClock.now
        let cpu = CPUMeter.started(loop: loop, environment: environment)
        // Deliveries in batches and one trip per answer, as the worker takes them.
        let batches = try await client.consumeBatches(queue: environment.settings.topology.jobsQueue, prefetch: UInt16(min(environment.settings.worker.prefetch, 65_535)))
        await withDiscardingTaskGroup { group in
            var seen = 0
            for await batch in batches {
                for delivery in batch { group.addTask { await answer(delivery) } }
                seen += batch.count
                if seen >= count { break }
            }
        }
        return await finish(count, started: started, cpu: cpu, client: client, environment: environment)
    }

    /// The time and CPU per job of a loop that answered `count` jobs since `started`; then stops
    /// consuming and tears the environment down.
    static func finish(_ count: Int, started: ContinuousClock.Instant, cpu: CPUMeter, client: AMQPClient, environment: BenchEnvironment) async -> Throughput {
        let seconds = (ContinuousClock.now - started).seconds
        let cpuPerJob = cpu.perJob(count)
        await client.cancelConsuming()
        await client.close()
        await environment.tearDown()
        return Throughput(jobs: count, seconds: seconds, cpuMicrosecondsPerJob: cpuPerJob)
    }

    /// What the limit loop does with each delivery: a same-sized result (420 bytes, persistent JSON)
    /// published with confirm, then the ack, in one trip to the client's event loop as the worker does.
    static func answerLikeTheLimit(_ delivery: AMQPDelivery, on client: AMQPClient, topology: TopologySection) async {
        _ = await client.publish([LimitLoop.answer(exchange: topology.resultsExchange)], thenAck: delivery)
    }

    struct Latency: Codable {
        let offeredRate: Double
        /// The rate the publisher kept (jobs over the time until the last was handed to the broker):
        /// below ``offeredRate`` when the machine could not publish that fast.
        let achievedRate: Double
        /// The share of the worker's maximum rate this load is, when a report chose it so.
        var share: Double?
        let jobs: Int
        let p50: Double
        let p99: Double
        let p999: Double
        /// Sorted latencies in milliseconds, for the CDF plot (downsampled).
        let samples: [Double]
        /// How busy the whole machine was while the jobs were published and handled (0-1, all cores):
        /// the broker, the worker, the mock and the publisher share this machine's cores, and at a
        /// half of the worker's rate the broker alone takes most of them (docs/decisions.md).
        let machineBusy: Double?

        /// ", 10296 jobs/s kept": the rate the publisher achieved.
        var keptText: String { String(format: ", %.0f jobs/s kept", achievedRate) }

        /// ", machine 88 % busy", or nothing when it could not be read.
        var busyText: String {
            machineBusy.map { String(format: ", machine %.0f %% busy", $0 * 100) } ?? ""
        }

        /// The percentiles and CDF samples of `latencies` (milliseconds, any order).
        init(offeredRate: Double, achievedRate: Double, latencies: [Double], machineBusy: Double?) {
            let sorted = latencies.sorted()
            func percentile(_ p: Double) -> Double { sorted.isEmpty ? .nan : sorted[min(sorted.count - 1, Int(Double(sorted.count) * p))] }
            self.offeredRate = offeredRate
            self.achievedRate = achievedRate
            jobs = sorted.count
            p50 = percentile(0.5)
            p99 = percentile(0.99)
            p999 = percentile(0.999)
            samples = stride(from: 0, to: sorted.count, by: max(1, sorted.count / 500)).map { sorted[$0] }
            self.machineBusy = machineBusy
        }
    }

    /// Publishes at `rate` jobs/s for `seconds` to a running worker, and reads every result's
    /// enqueue-to-result latency (from the `published-at` header the loader sets).
    func latency(rate: Double, seconds: Double, prefetch: Int) async throws -> Latency {
        let environment = try BenchEnvironment(prefetch: prefetch, connections: 2)
        let client = try await environment.client("latency")
        let worker = try WorkerProcess(settings: environment.settings)
        while worker.acked() == nil {
            try worker.checkRunning()
            try await Task.sleep(for: .milliseconds(100))
        }
        let total = Int(rate * seconds)
        var achieved = 0.0
        let machineBusy = try await ProcFS.busyShare {
            achieved = try await JobLoader.publishSteadily(total, rate: rate, into: client, topology: environment.settings.topology)
        }
        var latencies: [Double] = []
        var timeline = ""
        let results = try await client.consume(queue: environment.settings.topology.resultsQueue!, prefetch: 2000)
        for await delivery in results {
            if let result = try? JobResult.decode(delivery.message.body), let latency = result.latencyMS {
                latencies.append(Double(latency))
                timeline += "\(result.completedAt.timeIntervalSince1970) \(latency)\n"
            }
            await client.ack(delivery)
            if latencies.count >= total { break }
        }
        // APNS_BENCH_TIMELINE=FILE keeps "completed-at latency-ms" per job, to see stalls in time.
        if let path = ProcessInfo.processInfo.environment["APNS_BENCH_TIMELINE"] { try Data(timeline.utf8).write(to: URL(fileURLWithPath: path)) }
        await client.cancelConsuming()
        await client.close()
        worker.stop()
        await environment.tearDown()
        return Latency(offeredRate: rate, achievedRate: achieved, latencies: latencies, machineBusy: machineBusy)
    }
}

extension WorkerBenchmark {
    /// The broker's own share of the latency: the same steady publishing as ``latency(rate:seconds:prefetch:)``,
    /// consumed by the limit loop (a same-sized result published with confirm, then the ack) instead of
    /// the worker; latency is from the `published-at` stamp to the delivery's arrival.
    func brokerLatency(rate: Double, seconds: Double, prefetch: Int) async throws -> Latency {
        let environment = try BenchEnvironment(prefetch: prefetch, connections: 1)
        let publisher = try await environment.client("publisher")
        let consumer = try await environment.client("consumer")
        let topology = environment.settings.topology
        let total = Int(rate * seconds)
        let deliveries = try await consumer.consume(queue: topology.jobsQueue, prefetch: UInt16(min(prefetch, 65_535)))
        let collector = Task {
            await withDiscardingTaskGroup(returning: [Double].self) { group in
                var latencies: [Double] = []
                for await delivery in deliveries {
                    if case .int(let stamp)? = delivery.message.properties.headers["published-at"] {
                        latencies.append(Date().timeIntervalSince1970 * 1000 - Double(stamp))
                    }
                    group.addTask { await Self.answerLikeTheLimit(delivery, on: consumer, topology: topology) }
                    if latencies.count >= total { break }
                }
                return latencies
            }
        }
        var achieved = 0.0
        let machineBusy = try await ProcFS.busyShare {
            achieved = try await JobLoader.publishSteadily(total, rate: rate, into: publisher, topology: topology)
        }
        let latencies = await collector.value
        await consumer.cancelConsuming()
        await consumer.close()
        await publisher.close()
        await environment.tearDown()
        return Latency(offeredRate: rate, achievedRate: achieved, latencies: latencies, machineBusy: machineBusy)
    }
}

extension Duration {
    var seconds: Double {
        let (seconds, attoseconds) = components
        return Double(seconds) + Double(attoseconds) / 1e18
    }
}

extension WorkerBenchmark {
    /// "broker 52.3, mock 20.1, worker 41.0", in a fixed order.
    static func describe(_ cpu: [String: Double]) -> String {
        // Tenths: the bare loop's 5 µs rounded to a whole number moved a ratio to it by a tenth.
        cpu.sorted { $0.key < $1.key }.map { "\($0.key) \(String(format: "%.1f", $0.value))" }.joined(separator: ", ")
    }
}
