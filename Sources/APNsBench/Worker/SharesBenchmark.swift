import AMQP
import Foundation
import Worker
import WorkerConfiguration

/// Shares between two teams on one worker: team B's single jobs published steadily (1,000/s for 8 s),
/// p99 publication → result (as B's own results consumer times it), alone and while team A's APNs answers take
/// 1 s and A's backlog is queued in the bulk queue, with B's jobs in that queue too, in a team lane
/// of B's, or in the urgent lane; and how many of A's jobs run meanwhile (its share used).
struct SharesBenchmark {
    struct Run {
        let p50: Double
        let p99: Double
        /// The p99 of B's results' own `latency_ms`: publication until the result left the worker
        /// (whole milliseconds). What p99 gains beyond it is the broker's and B's consumer's.
        let workerP99: Double
        let count: Int
        /// Team A's jobs running while B's were published (the median of the scrapes), nil alone.
        let teamARunning: Double?
    }

    /// How long team A's answers take: always 1 s, or 0.5–1.5 s at random (1 s on average). With a
    /// fixed second, the 500 jobs A runs at once are answered together, once a second, and the
    /// worker handles 500 results, acks and new requests in one burst that B's jobs wait behind.
    enum TeamALatency: String {
        case fixed = #"{"fixed":{"milliseconds":1000}}"#
        case spread = #"{"uniform":{"minimumMilliseconds":500,"maximumMilliseconds":1500}}"#
    }

    /// Team B's figures with `backlog` of team A's jobs queued first (none: B alone), B's jobs
    /// published to `lane` (a team lane is named `b`).
    func run(backlog: Int, lane: Lane = .bulk, latency: TeamALatency = .fixed) async throws -> Run {
        var environment = try BenchEnvironment(
            prefetch: 500, connections: 2, mockArguments: ["--faults", #"{"topicLatency":{"com.example.app":"# + latency.rawValue + "}}"]
        )
        if case .team(let name) = lane { environment.settings.topology.teamLanes = [TeamLane(name: name, queue: environment.prefix + "apns.jobs." + name)] }
        let client = try await environment.client("shares")
        let topology = environment.settings.topology
        try await JobLoader.load(backlog, into: client, topology: topology) { JobLoader.body(index: $0, id: "a-\($0)", topic: "com.example.app") }
        let worker = try WorkerProcess(settings: environment.settings, secondTeam: true)
        while worker.acked() == nil {
            try worker.checkRunning()
            try await Task.sleep(for: .milliseconds(100))
        }
        let total = 8_000
        let scrapes = Task { [port = worker.metricsPort] in
            var running: [Double] = []
            while !Task.isCancelled {
                if let value = WorkerProcess.metric(#"apns_credential_jobs_running{credential="bench"}"#, port: port) { running.append(value) }
                try? await Task.sleep(for: .milliseconds(500))
            }
            return running
        }
        // B's results come to a queue of B's own (`reply_to`), as a team sharing a fleet consumes them:
        // in the shared results queue they waited behind A's 500 results of each second, and so did the
        // one consumer reading both (up to 50 ms of a B job's p99 was its result's trip after the worker).
        let results = try await environment.client("shares-results")
        let resultsOfB = environment.prefix + "apns.results.b"
        try await results.declare(queues: [AMQPQueueDeclaration(name: resultsOfB, arguments: ["x-queue-type": .string("quorum")])])
        let timed = try await ResultLatencies.timed(consumer: results, queue: resultsOfB, count: total) { $0.id?.hasPrefix("b-") == true } publish: { times in
            try await JobLoader.publishSteadily(
                total, rate: 1_000, into: client, topology: topology, routingKey: topology.routingKey(of: lane), replyTo: resultsOfB, times: times
            ) {
                JobLoader.body(index: $0, id: "b-\($0)", topic: "com.example.other")
            }
        }
        scrapes.cancel()
        let running = await scrapes.value.sorted()
        try? await results.deleteQueue(resultsOfB)
        await results.close()
        await client.close()
        worker.stop()
        await environment.tearDown()
        let latency = timed.summary()
        return Run(
            p50: latency.p50, p99: latency.p99, workerP99: timed.workerSummary().p99, count: timed.samples.count,
            teamARunning: backlog == 0 || running.isEmpty ? nil : running[running.count / 2]
        )
    }

    func report() async throws {
        let alone = try await run(backlog: 0)
        let behind = try await run(backlog: 50_000)
        print(String(format: "team B's jobs in the bulk queue: p50 %.1f ms, p99 %.1f ms alone; p50 %.0f ms, p99 %.0f ms behind team A's 50,000 (answers in 1 s): p99 ratio %.0f; team A ran %.0f jobs at once (of 500 bulk slots)",
                     alone.p50, alone.p99, behind.p50, behind.p99, behind.p99 / alone.p99, behind.teamARunning ?? 0))
        let team = Lane.team("b")
        let teamAlone = try await run(backlog: 0, lane: team)
        let teamBehind = try await run(backlog: 50_000, lane: team)
        print(String(format: "team B's jobs in its team lane: p50 %.1f ms, p99 %.1f ms alone; p50 %.1f ms, p99 %.1f ms with team A's 50,000 queued in the bulk queue: p99 ratio %.2f; team A ran %.0f jobs at once (its queue's window: 500); until B's results left the worker (their latency_ms): p99 %.0f ms alone, %.0f ms behind",
                     teamAlone.p50, teamAlone.p99, teamBehind.p50, teamBehind.p99, teamBehind.p99 / teamAlone.p99, teamBehind.teamARunning ?? 0, teamAlone.workerP99, teamBehind.workerP99))
        let spreadBehind = try await run(backlog: 50_000, lane: team, latency: .spread)
        print(String(format: "the same with team A's answers spread over 0.5–1.5 s (1 s on average) instead of all at 1 s: p50 %.1f ms, p99 %.1f ms: p99 ratio %.2f; team A ran %.0f jobs at once",
                     spreadBehind.p50, spreadBehind.p99, spreadBehind.p99 / teamAlone.p99, spreadBehind.teamARunning ?? 0))
        let urgentAlone = try await run(backlog: 0, lane: .urgent)
        let urgentBehind = try await run(backlog: 50_000, lane: .urgent)
        print(String(format: "team B's jobs in the urgent lane: p50 %.1f ms, p99 %.1f ms alone; p50 %.1f ms, p99 %.1f ms with team A's 50,000 queued: p99 ratio %.2f; team A ran %.0f jobs at once; until B's results left the worker: p99 %.0f ms alone, %.0f ms behind",
                     urgentAlone.p50, urgentAlone.p99, urgentBehind.p50, urgentBehind.p99, urgentBehind.p99 / urgentAlone.p99, urgentBehind.teamARunning ?? 0, urgentAlone.workerP99, urgentBehind.workerP99))
    }
}
