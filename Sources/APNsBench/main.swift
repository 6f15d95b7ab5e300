import Foundation
import WorkerConfiguration

/// `apns-bench`: prints figures; never a pass/fail test. Run from the repository root (it reads the
/// test fixtures and starts `mock-apns` from the same build folder); `apns-bench --help` lists the
/// subcommands and their options.
let arguments = Array(CommandLine.arguments.dropFirst())

func option(_ name: String, default value: String) -> String {
    guard let index = arguments.firstIndex(of: name), index + 1 < arguments.count else { return value }
    return arguments[index + 1]
}

let usage = """
    usage: apns-bench jwt [--batches N] [--per-batch N]
           apns-bench redact [--batches N] [--per-batch N]                (the log redaction, per logged line)
           apns-bench client [--count N] [--streams N] [--rounds N] [--output DIR]
           apns-bench client-only --port P [--count N] [--connections C] [--streams N] [--on-loop | --callbacks] [--devices N]
           apns-bench worker [--count N] [--rounds R] [--sweep-count N] [--latency-seconds S] [--output DIR]
           apns-bench throughput [--count N] [--prefetch P] [--connections C] [--workers W] [--with-ceiling]
           apns-bench malformed [--count N]                               (a worker on refused jobs, logging at info)
           apns-bench amqp [--count N] [--rounds R] [--prefetch P]      (the AMQP client against bare rabbitmq-c; needs strace)
           apns-bench memory [--in-flight N] [--connections C]
           apns-bench profile [--count N] [--seconds S] [--output DIR]
           apns-bench latency [--rate R] [--seconds S] [--prefetch P] [--with-broker]
           apns-bench multicast [--count N] [--rounds R] [--fairness-only [--urgent-only] | --tokens N]
           apns-bench shares [--backlog N [--lane bulk|team|urgent] [--spread]]   (team B's latency alone and behind team A's backlog;
                                                                          with --backlog, one run of the report's)
           apns-bench partitions [--count N] [--partitions 1,3] [--workers W] [--rounds R]   (needs scripts/rabbitmq-cluster.sh start)
    Run from the repository root with the test broker up (scripts/rabbitmq.sh start; eval "$(scripts/rabbitmq.sh env)").

    """
// Every subcommand starts measuring at once, so a help request must be caught before any of them.
if arguments.contains("--help") || arguments.contains("-h") {
    print(usage, terminator: "")
    exit(0)
}

switch arguments.first {
case "jwt":
    let benchmark = JWTBenchmark(batches: Int(option("--batches", default: "31"))!, perBatch: Int(option("--per-batch", default: "500"))!)
    try benchmark.run(
        keyPath: option("--key", default: "Tests/Fixtures/keys/AuthKey_TESTKEY001.p8"),
        publicKeyPath: option("--public-key", default: "Tests/Fixtures/keys/AuthKey_TESTKEY001.pub.pem")
    )
case "redact":
    RedactionBenchmark(timing: PerOperation(batches: Int(option("--batches", default: "21"))!, perBatch: Int(option("--per-batch", default: "200"))!)).run()
case "client":
    try await ClientComparison(
        count: Int(option("--count", default: "200000"))!,
        streams: Int(option("--streams", default: "1000"))!,
        rounds: Int(option("--rounds", default: "3"))!,
        // client.json only when asked (make bench asks): a run by hand leaves the committed figures alone.
        output: arguments.contains("--output") ? option("--output", default: "docs/benchmarks") : nil
    ).run()
case "worker":
    try await WorkerReport.run(
        jobs: Int(option("--count", default: "200000"))!,
        rounds: Int(option("--rounds", default: "5"))!,
        sweepJobs: Int(option("--sweep-count", default: "40000"))!,
        latencySeconds: Double(option("--latency-seconds", default: "15"))!,
        output: option("--output", default: "docs/benchmarks")
    )
case "multicast":
    let benchmark = MulticastBenchmark(notifications: Int(option("--count", default: "200000"))!, rounds: Int(option("--rounds", default: "3"))!)
    if arguments.contains("--fairness-only") {
        try await benchmark.reportFairness(urgentOnly: arguments.contains("--urgent-only"))
    } else if let tokens = Int(option("--tokens", default: "")) {
        // One size only (for profiling): one run, its figures.
        let figures = try await benchmark.run(tokens: tokens, notifications: benchmark.notifications, prefetch: Int(option("--prefetch", default: "500"))!)
        print(String(format: "%d tokens/job: %.0f notifications/s; CPU µs per notification: broker %.1f, worker %.1f; peak RSS %.0f MiB", tokens, figures.rate, figures.brokerMicroseconds, figures.workerMicroseconds, figures.peakRSSMiB))
    } else {
        try await benchmark.report()
    }
case "shares":
    if let backlog = Int(option("--backlog", default: "")) {
        let lanes: [String: Lane] = ["bulk": .bulk, "team": .team("b"), "urgent": .urgent]
        let lane = lanes[option("--lane", default: "team")]!
        let run = try await SharesBenchmark().run(backlog: backlog, lane: lane, latency: arguments.contains("--spread") ? .spread : .fixed)
        print(String(format: "team B: p50 %.1f ms, p99 %.1f ms (until its results left the worker: p99 %.0f ms); team A ran %.0f jobs at once", run.p50, run.p99, run.workerP99, run.teamARunning ?? 0))
    } else {
        try await SharesBenchmark().report()
    }
case "limit-loop":
    // The benchmarks' own child process (see LimitLoop).
    try await LimitLoop.run(
        url: option("--url", default: ""), queue: option("--queue", default: ""), exchange: option("--exchange", default: ""),
        count: Int(option("--count", default: "0"))!, prefetch: Int(option("--prefetch", default: "500"))!
    )
case "amqp":
    try await AMQPClientBenchmark(count: Int(option("--count", default: "100000"))!, rounds: Int(option("--rounds", default: "5"))!, prefetch: Int(option("--prefetch", default: "500"))!).run()
case "malformed":
    // A producer's bug as the worker meets it: every job refused (BadDeviceToken), each answered with a
    // result and a dead letter and logged as a warning, at the log level the worker ships with (info).
    let count = Int(option("--count", default: "20000"))!
    let run = try await WorkerBenchmark().throughput(count: count, prefetch: 500, connections: 1, body: JobLoader.malformedBody(index:), logLevel: .info)
    print(String(format: "%d malformed jobs, logged at info: %.0f jobs/s; CPU µs per job: %@", count, run.rate, WorkerBenchmark.describe(run.cpuMicrosecondsPerJob)))
case "throughput":
    // The end-to-end ratio alone (for profiling): the broker's limit, then the worker, same jobs.
    let count = Int(option("--count", default: "100000"))!
    let prefetch = Int(option("--prefetch", default: "500"))!
    let bench = WorkerBenchmark()
    let bare = try await bench.bareLimit(count: count, prefetch: prefetch)
    print(String(format: "bare rabbitmq-c limit %.0f jobs/s; CPU µs per job: %@", bare.rate, WorkerBenchmark.describe(bare.cpuMicrosecondsPerJob)))
    let limit = try await bench.brokerLimit(count: count, prefetch: prefetch)
    let connections = Int(option("--connections", default: "2"))!
    // Several workers share the jobs, each with this prefetch and these connections (with
    // NIO_SINGLETON_GROUP_LOOP_COUNT=1, one event loop each: a shard per process).
    let workers = Int(option("--workers", default: "1"))!
    let worker = try await bench.throughput(count: count, prefetch: prefetch, connections: connections, workers: workers)
    print(String(format: "limit loop %.0f jobs/s, worker %.0f jobs/s (peak RSS %.0f MiB): worker ÷ bare limit = %.2f, worker ÷ limit loop = %.2f", limit.rate, worker.rate, worker.peakRSSMiB ?? 0, worker.rate / bare.rate, worker.rate / limit.rate))
    print("CPU µs per job, limit run: \(WorkerBenchmark.describe(limit.cpuMicrosecondsPerJob)); worker run: \(WorkerBenchmark.describe(worker.cpuMicrosecondsPerJob))")
    if arguments.contains("--with-ceiling") {
        let ceiling = try await bench.ceiling(count: count, prefetch: prefetch, connections: connections)
        print(String(format: "ceiling (limit loop + one HTTP/2 exchange per job) %.0f jobs/s: ceiling ÷ limit = %.2f, worker ÷ ceiling = %.2f", ceiling.rate, ceiling.rate / limit.rate, worker.rate / ceiling.rate))
        print("CPU µs per job, ceiling run: \(WorkerBenchmark.describe(ceiling.cpuMicrosecondsPerJob))")
        let callbacks = try await bench.ceilingOnCallbacks(count: count, prefetch: prefetch, connections: connections)
        print(String(format: "ceiling on callbacks (no task, as the worker's single jobs) %.0f jobs/s: worker ÷ it = %.2f", callbacks.rate, worker.rate / callbacks.rate))
        print("CPU µs per job, ceiling-on-callbacks run: \(WorkerBenchmark.describe(callbacks.cpuMicrosecondsPerJob))")
    }
case "profile":
    // Where the worker's CPU per job goes, by part of the job's path (needs linux-perf).
    let output = option("--output", default: "docs/benchmarks")
    try FileManager.default.createDirectory(atPath: output, withIntermediateDirectories: true)
    let profile = try await WorkerBenchmark().profile(
        count: Int(option("--count", default: "150000"))!, seconds: Int(option("--seconds", default: "5"))!,
        dataFile: FileManager.default.temporaryDirectory.appendingPathComponent("apns-bench-\(getpid()).perf.data").path
    )
    print(String(format: "worker CPU per job over the profile: %.1f µs (%d samples):", profile.cpuMicrosecondsPerJob, profile.samples))
    for part in WorkerBenchmark.profileParts {
        print(String(format: "  %@ %5.1f µs  %4.1f%%", part.padding(toLength: 32, withPad: " ", startingAt: 0), profile.microsecondsPerJob[part] ?? 0, (profile.shares[part] ?? 0) * 100))
    }
    print("largest leaf symbols:")
    for symbol in profile.topSymbols.prefix(12) { print(String(format: "  %4.1f%%  %@  (%@)", symbol.share * 100, String(symbol.name.prefix(90)), symbol.library.split(separator: "/").last.map(String.init) ?? "")) }
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
    try encoder.encode(profile).write(to: URL(fileURLWithPath: output).appendingPathComponent("profile.json"))
case "latency":
    // One fixed offered load alone: enqueue → result percentiles.
    let run = try await WorkerBenchmark().latency(
        rate: Double(option("--rate", default: "5000"))!, seconds: Double(option("--seconds", default: "15"))!,
        prefetch: Int(option("--prefetch", default: "500"))!
    )
    print(String(format: "worker: %.0f jobs/s offered: p50 %.1f ms, p99 %.1f ms, p99.9 %.1f ms (%d jobs)%@%@", run.offeredRate, run.p50, run.p99, run.p999, run.jobs, run.keptText, run.busyText))
    if arguments.contains("--with-broker") {
        let broker = try await WorkerBenchmark().brokerLatency(rate: run.offeredRate, seconds: Double(option("--seconds", default: "15"))!, prefetch: Int(option("--prefetch", default: "500"))!)
        print(String(format: "broker alone: %.0f jobs/s offered: p50 %.1f ms, p99 %.1f ms, p99.9 %.1f ms (%d jobs)%@%@", broker.offeredRate, broker.p50, broker.p99, broker.p999, broker.jobs, broker.keptText, broker.busyText))
    }
case "memory":
    // The memory measurement alone: prefetch N with APNs slow to answer, so N jobs sit in the worker;
    // with C connections, up to C × 1,000 of them on APNs streams, the rest waiting for a stream.
    let inFlight = Int(option("--in-flight", default: "10000"))!
    let connections = Int(option("--connections", default: "2"))!
    let run = try await WorkerBenchmark().throughput(
        count: inFlight * 3, prefetch: inFlight, connections: connections,
        mockArguments: ["--faults", #"{"latency":{"fixed":{"milliseconds":2000}}}"#]
    )
    print(String(format: "%d jobs in flight, %d APNs connections: worker peak RSS %.1f MiB", inFlight, connections, run.peakRSSMiB ?? 0))
case "partitions":
    // One jobs queue against several, on the local three-node cluster (scripts/rabbitmq-cluster.sh start).
    let benchmark = PartitionBenchmark(
        count: Int(option("--count", default: "60000"))!, workers: Int(option("--workers", default: "3"))!, prefetch: Int(option("--prefetch", default: "500"))!
    )
    let counts = option("--partitions", default: "1,3").split(separator: ",").compactMap { Int($0) }
    for round in 1...Int(option("--rounds", default: "3"))! {
        for partitions in counts {
            let run = try await benchmark.run(partitions: partitions)
            let leaders = run.leaders.sorted { $0.key < $1.key }.map { "\($0.value.split(separator: "@").first ?? "?")" }.joined(separator: ", ")
            let broker = run.throughput.cpuMicrosecondsPerJob.filter { $0.key.hasPrefix("rabbit") }.values.reduce(0, +)
            print(String(
                format: "round %d, %d partition(s): %.0f jobs/s; CPU µs per job: broker %.0f (%@); leaders: %@", round, partitions, run.throughput.rate, broker,
                WorkerBenchmark.describe(run.throughput.cpuMicrosecondsPerJob), leaders
            ))
        }
    }
case "client-only":
    // Drives an already running mock (for profiling the client alone).
    let callers: ClientBenchmark.Callers = arguments.contains("--on-loop") ? .eventLoop : arguments.contains("--callbacks") ? .callbacks : .cooperativePool
    let result = try await ClientBenchmark(
        count: Int(option("--count", default: "100000"))!, payload: ClientComparison.payload, deviceToken: ClientComparison.deviceToken, callers: callers,
        distinctDevices: Int(option("--devices", default: "0"))!
    ).run(connections: Int(option("--connections", default: "1"))!, streamsPerConnection: Int(option("--streams", default: "1000"))!, port: Int(option("--port", default: "2197"))!)
    print(String(format: "%.0f notifications/s, p50 %.2f ms, p99 %.2f ms, %.1f µs CPU each, peak RSS %.1f MiB, %d failures", result.rate, result.latency.p50, result.latency.p99, result.cpuMicrosecondsPerNotification, result.peakRSSMiB, result.failures))
default:
    FileHandle.standardError.write(Data(usage.utf8))
    exit(2)
}
