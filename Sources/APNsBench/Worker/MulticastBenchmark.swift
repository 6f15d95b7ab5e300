import AMQP
import Foundation
import Worker
import WorkerConfiguration

/// Multicast against single jobs through one broker queue: notifications per second and the CPU each
/// process spends per notification, with 1, 100 and 1,000 tokens per job; then the worker's peak RSS
/// with 10 jobs of 10,000 tokens in flight. The client benchmark, run on the same mock in the same
/// process layout, gives the CPU per notification the APNs client alone needs, which the worker's
/// multicast figure is compared with.
struct MulticastBenchmark {
    let notifications: Int
    let rounds: Int

    struct Figures {
        let tokensPerJob: Int
        let rate: Double
        let brokerMicroseconds: Double
        let workerMicroseconds: Double
        let peakRSSMiB: Double
    }

    /// One run: `notifications` spread over jobs of `tokens` tokens, pre-loaded, then one worker.
    func run(tokens: Int, notifications: Int, prefetch: Int = 500) async throws -> Figures {
        let environment = try BenchEnvironment(prefetch: prefetch, connections: 2)
        let loader = try await environment.client("loader")
        let jobs = max(1, notifications / tokens)
        try await Self.load(jobs, tokens: tokens, into: loader, topology: environment.settings.topology)
        await loader.close()
        let started = ContinuousClock.now
        let process = try WorkerProcess(settings: environment.settings)
        var cpu = WorkerBenchmark.CPUMeter()
        cpu.start("broker", pids: ProcFS.brokerPID.map { [$0] } ?? [])
        cpu.start("worker", pids: [process.process.processIdentifier])
        let peak = try await WorkerBenchmark.waitUntilAcked(jobs, by: [process], since: started)
        let seconds = (ContinuousClock.now - started).seconds
        let perNotification = cpu.perJob(jobs * tokens)
        process.stop()
        await environment.tearDown()
        return Figures(
            tokensPerJob: tokens, rate: Double(jobs * tokens) / seconds,
            brokerMicroseconds: perNotification["broker"] ?? 0, workerMicroseconds: perNotification["worker"] ?? 0, peakRSSMiB: peak
        )
    }

    /// Publishes `jobs` alerts of `tokens` random tokens each (a single `device_token` when 1).
    static func load(_ jobs: Int, tokens: Int, into client: AMQPClient, topology: TopologySection, idPrefix: String = "job") async throws {
        try await JobLoader.load(jobs, into: client, topology: topology, window: 500) { index in
            let list = (0..<tokens).map { _ in "\"" + JobLoader.randomToken() + "\"" }
            let target = tokens == 1 ? "\"device_token\":\(list[0])" : "\"device_tokens\":[\(list.joined(separator: ","))]"
            return Array(#"{"id":"\#(idPrefix)-\#(index)",\#(target),"topic":"com.example.app","payload":"#.utf8) + JobLoader.payload(index: index) + [UInt8(ascii: "}")]
        }
    }

    /// What is queued ahead of the single jobs ``fairness(ahead:urgent:)`` measures.
    enum Backlog {
        case none
        /// ``multicastBacklogJobs`` jobs of ``multicastBacklogTokens`` tokens.
        case multicast
        /// 100,000 single jobs.
        case singles
    }

    /// How many multicast jobs the multicast backlog is, and how many tokens each has.
    static let multicastBacklogJobs = 20
    static let multicastBacklogTokens = 10_000

    /// `number` with a comma between thousands, as the lines print counts (`200,000`).
    static func grouped(_ number: Int) -> String {
        let digits = Array(String(number))
        return String(digits.enumerated().flatMap { index, digit in
            index > 0 && (digits.count - index) % 3 == 0 ? [",", digit] : [digit]
        })
    }

    /// One ``fairness(ahead:urgent:)`` run's figures.
    struct Fairness {
        /// Publication → result of the steady single jobs; behind a multicast backlog, only of those
        /// published while it drained.
        let latency: LatencySummary
        /// The same jobs' `latency_ms` as the worker reports it (until their results leave it).
        let worker: LatencySummary
        /// How many results that is.
        let count: Int
        /// How long the multicast backlog took to drain from the first steady job's publication
        /// (nil without one, or when it outlasted the steady jobs or drained before them).
        let drainSeconds: Double?
    }

    /// Latency of single jobs published steadily (1,000/s for 8 s), alone or with a backlog queued
    /// before the worker starts: what a large multicast (or a campaign of single jobs) costs everyone
    /// else; `urgent`, with the measured jobs in the urgent lane.
    func fairness(ahead backlog: Backlog, urgent: Bool = false) async throws -> Fairness {
        let environment = try BenchEnvironment(prefetch: 500, connections: 2)
        let client = try await environment.client("fairness")
        let topology = environment.settings.topology
        switch backlog {
        case .none: break
        case .multicast: try await Self.load(Self.multicastBacklogJobs, tokens: Self.multicastBacklogTokens, into: client, topology: topology, idPrefix: "multicast")
        case .singles: try await Self.load(100_000, tokens: 1, into: client, topology: topology, idPrefix: "campaign")
        }
        let worker = try WorkerProcess(settings: environment.settings)
        while worker.acked() == nil {
            try worker.checkRunning()
            try await Task.sleep(for: .milliseconds(100))
        }
        let total = 8_000
        let results = try await environment.client("fairness-results")
        // Single jobs only: not the multicast backlog's results (each marks how far it drained), nor
        // the campaign's.
        let timed = try await ResultLatencies.timed(consumer: results, queue: topology.resultsQueue!, count: total) {
            $0.tokens == nil && $0.id?.hasPrefix("job-") == true
        } marking: {
            $0.id?.hasPrefix("multicast-") == true
        } publish: { times in
            try await JobLoader.publishSteadily(total, rate: 1_000, into: client, topology: topology, routingKey: topology.routingKey(of: urgent ? .urgent : .bulk), times: times)
        }
        await results.close()
        await client.close()
        worker.stop()
        await environment.tearDown()
        // Drained before the first steady job (a machine fast enough), or after the last: no window.
        guard backlog == .multicast, timed.marks.count == Self.multicastBacklogJobs, let drained = timed.marks.max(),
              let first = timed.samples.map(\.published).min(), drained > first else {
            return Fairness(latency: timed.summary(), worker: timed.workerSummary(), count: timed.samples.count, drainSeconds: nil)
        }
        let during = timed.published(before: drained)
        return Fairness(latency: during.summary(), worker: during.workerSummary(), count: during.samples.count, drainSeconds: (drained - first) / .seconds(1))
    }

    /// The lanes' lines; `urgentOnly`, just the urgent lane alone and behind multicast (for A/B pairs).
    func reportFairness(urgentOnly: Bool = false) async throws {
        func during(_ run: Fairness) -> String {
            run.drainSeconds.map { String(format: " (%d jobs published while it drained, %.1f s)", run.count, $0) } ?? " (it outlasted the steady jobs, or drained before them: all of them counted)"
        }
        func inWorker(_ run: Fairness) -> String {
            String(format: "; until their results left the worker (its latency_ms): p50 %.0f ms, p99 %.0f ms", run.worker.p50, run.worker.p99)
        }
        if !urgentOnly {
            let alone = try await fairness(ahead: .none).latency
            let behind = try await fairness(ahead: .multicast)
            print(String(format: "single jobs at 1,000/s: p50 %.1f ms, p99 %.1f ms alone; p50 %.1f ms, p99 %.1f ms while %d × %@-token jobs drain", alone.p50, alone.p99, behind.latency.p50, behind.latency.p99, Self.multicastBacklogJobs, Self.grouped(Self.multicastBacklogTokens)) + during(behind))
        }
        let urgentAlone = try await fairness(ahead: .none, urgent: true).latency
        let urgentBehind = try await fairness(ahead: .multicast, urgent: true)
        print(String(format: "urgent single jobs at 1,000/s: p50 %.1f ms, p99 %.1f ms alone; p50 %.1f ms, p99 %.1f ms while %@ queued bulk notifications (%d × %@ tokens) drain: p99 ratio %.2f",
                     urgentAlone.p50, urgentAlone.p99, urgentBehind.latency.p50, urgentBehind.latency.p99,
                     Self.grouped(Self.multicastBacklogJobs * Self.multicastBacklogTokens), Self.multicastBacklogJobs, Self.grouped(Self.multicastBacklogTokens),
                     urgentBehind.latency.p99 / urgentAlone.p99) + during(urgentBehind) + inWorker(urgentBehind))
        guard !urgentOnly else { return }
        let bulkBehindCampaign = try await fairness(ahead: .singles).latency
        let urgentBehindCampaign = try await fairness(ahead: .singles, urgent: true)
        print(String(format: "behind 100,000 queued single bulk jobs, jobs at 1,000/s: bulk p50 %.0f ms, p99 %.0f ms; urgent p50 %.1f ms, p99 %.1f ms",
                     bulkBehindCampaign.p50, bulkBehindCampaign.p99, urgentBehindCampaign.latency.p50, urgentBehindCampaign.latency.p99) + inWorker(urgentBehindCampaign))
    }

    func report() async throws {
        print("multicast: \(notifications) notifications per run, median of \(rounds) runs, one worker, one queue, 2 connections")
        print("tokens/job  notifications/s  broker µs/notif  worker µs/notif  peak RSS MiB")
        var medians: [Int: Figures] = [:]
        for tokens in [1, 100, 1000] {
            var runs: [Figures] = []
            for _ in 0..<rounds { runs.append(try await run(tokens: tokens, notifications: tokens == 1 ? notifications / 2 : notifications)) }
            let median = runs.median(by: \.rate)
            medians[tokens] = median
            print(String(format: "%10d  %15.0f  %15.1f  %15.1f  %12.0f", tokens, median.rate, median.brokerMicroseconds, median.workerMicroseconds, median.peakRSSMiB))
        }
        // The client alone, on a fresh mock each round, for its CPU per notification: the median of as
        // many rounds as the worker's (one client run varied from 16 to 20 µs here). It sends as the
        // worker's senders do: callbacks on the loop that holds its connections, each request to a device
        // of its own under an apns-id of its own. Until 2026-11-30 it sent from tasks on the cooperative
        // pool (as the senders did until 2026-11-27) to one device with no apns-id; that run is kept
        // beside it, so the two yardsticks can be read side by side.
        var clientRuns: [ClientBenchmark.Result] = []
        var earlierClientRuns: [ClientBenchmark.Result] = []
        for _ in 0..<rounds {
            for callers in [ClientBenchmark.Callers.callbacks, .cooperativePool] {
                let environment = try BenchEnvironment(prefetch: 500, connections: 2)
                let benchmark = ClientBenchmark(
                    count: notifications, payload: JobLoader.payload(index: 1), deviceToken: ClientComparison.deviceToken, callers: callers,
                    distinctDevices: callers == .callbacks ? 10_000 : 0
                )
                let result = try await benchmark.run(connections: 2, streamsPerConnection: 1000, port: environment.mock.port)
                if callers == .callbacks { clientRuns.append(result) } else { earlierClientRuns.append(result) }
                await environment.tearDown()
            }
        }
        let client = clientRuns.median(by: \.cpuMicrosecondsPerNotification)
        let earlierClient = earlierClientRuns.median(by: \.cpuMicrosecondsPerNotification)
        print(String(
            format: "client benchmark (2 connections, 2,000 in flight, as the worker's permits; callbacks, 10,000 devices, an apns-id each): %.0f notifications/s, %.1f µs CPU per notification (median of %d)",
            client.rate, client.cpuMicrosecondsPerNotification, clientRuns.count
        ))
        print(String(
            format: "the same from tasks on the cooperative pool to one device without apns-id (the yardstick until 2026-11-30): %.0f notifications/s, %.1f µs CPU per notification",
            earlierClient.rate, earlierClient.cpuMicrosecondsPerNotification
        ))
        if let single = medians[1], let hundred = medians[100], let thousand = medians[1000] {
            print(String(format: "100 tokens ÷ 1 token: %.1f× the notifications/s; 1,000 ÷ 1: %.1f×", hundred.rate / single.rate, thousand.rate / single.rate))
            print(String(format: "worker CPU per notification ÷ client's: %.2f at 100 tokens, %.2f at 1,000 (against the earlier yardstick: %.2f, %.2f)",
                         hundred.workerMicroseconds / client.cpuMicrosecondsPerNotification, thousand.workerMicroseconds / client.cpuMicrosecondsPerNotification,
                         hundred.workerMicroseconds / earlierClient.cpuMicrosecondsPerNotification, thousand.workerMicroseconds / earlierClient.cpuMicrosecondsPerNotification))
        }
        // Memory: 10 jobs of 10,000 tokens in flight at once, against an idle worker's RSS.
        let idle = try await run(tokens: 1, notifications: 1)
        let big = try await run(tokens: 10_000, notifications: 100_000)
        print(String(format: "peak RSS: %.0f MiB with 10 jobs × 10,000 tokens in flight; %.0f MiB for one single job (the worker's floor); +%.0f MiB", big.peakRSSMiB, idle.peakRSSMiB, big.peakRSSMiB - idle.peakRSSMiB))
        try await reportFairness()
    }
}
