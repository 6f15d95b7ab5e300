import Foundation
import MockAPNs
import Worker
import WorkerConfiguration

/// The cluster tier: three RabbitMQ nodes (`scripts/rabbitmq-cluster.sh`), the worker given all three
/// and connected to node 1, which also leads every queue. Losing a node costs a leader election (the
/// broker nacks publishes for a few seconds) and, for the worker's own node, a reconnect: at-least-once
/// must hold, and duplicates stay within one prefetch window (200) per node lost.
extension FaultCatalog {
    /// A cluster scenario's common ground: the cluster, a generous timeout, APNs answering after
    /// `latency` so the load lasts past the fault, duplicates (and re-sent pushes) bounded by
    /// `duplicates`, and the check that no nack was taken for a routing error.
    static func clusterScenario(_ name: String, _ summary: String, jobs: [FaultJob], latency: Double, duplicates: Int) -> FaultScenario {
        var scenario = FaultScenario(name: name, summary: summary, jobs: jobs)
        scenario.cluster = true
        scenario.timeout = .seconds(240)
        scenario.mock = { $0.faults.latency = .fixed(milliseconds: latency) }
        scenario.maximumDuplicateResults = duplicates
        scenario.maximumDuplicateAPNsIDs = duplicates
        scenario.maximumRequests = { $0.scenario.jobs.count + duplicates }
        scenario.checks = noNackTreatedAsUnroutable
        return scenario
    }

    @Sendable static func clusterLeaderKill() -> FaultScenario {
        var scenario = clusterScenario(
            "cluster-leader-kill",
            "3,000 jobs on a three-node cluster (APNs answering in 200 ms, so the load lasts); at 600 accepted pushes the node that leads every queue and holds the worker's connection gets `kill -9`, and is restarted 5 s later. The worker reconnects to another node; results nacked during the leader elections are published again in place, not requeued as unroutable. Duplicates stay within one prefetch window (200).",
            jobs: FaultJob.alerts("leader", count: 3000), latency: 200, duplicates: 200
        )
        scenario.action = killNodeOne(atAccepted: 600)
        return scenario
    }

    /// The leader's loss with as much in flight as the worker can have: APNs answers at once, the jobs
    /// are queued before the worker starts, and the node dies once a quarter were accepted. Run several
    /// times (`round`), because the bound must hold every time, not once.
    static func clusterLeaderKillInFlight(round: Int) -> FaultScenario {
        var scenario = clusterScenario(
            "cluster-in-flight-\(round)",
            "20,000 jobs queued first, APNs answering at once; at 5,000 accepted pushes the node that leads the jobs and results queues and holds the worker's connection gets `kill -9`, restarted 5 s later. Duplicate results stay within the prefetch (500, the default) and no push is repeated: the worker process lives, and remembers what APNs accepted. Round \(round) of 3.",
            jobs: FaultJob.alerts("inflight\(round)", count: 20_000), latency: 0, duplicates: 500
        )
        // The default prefetch, as a fleet runs it: the bound is one prefetch window.
        scenario.settings = { $0.worker.prefetch = 500 }
        scenario.mock = { _ in }
        scenario.maximumDuplicateAPNsIDs = 0
        scenario.maximumRequests = { $0.scenario.jobs.count }
        scenario.action = killNodeOne(atAccepted: 5000)
        return scenario
    }

    @Sendable static func clusterNodeStop() -> FaultScenario {
        var scenario = clusterScenario(
            "cluster-node-stop",
            "4,000 jobs on a three-node cluster (APNs answering in 300 ms); at 600 accepted pushes the node the worker is connected to (and the queues' leader) stops cleanly while the other two go on; it starts again at 2,500. Duplicates stay within one prefetch window (200).",
            jobs: FaultJob.alerts("stop", count: 4000), latency: 300, duplicates: 200
        )
        scenario.action = { run in
            try await run.waitForAccepted(600)
            try await run.cluster("stop-node", "1")
            try await run.waitForAccepted(2500)
            try await run.cluster("restart", "1")
        }
        return scenario
    }

    @Sendable static func clusterRollingRestart() -> FaultScenario {
        var scenario = clusterScenario(
            "cluster-rolling-restart",
            "10,000 jobs on a three-node cluster (APNs answering in 500 ms), restarted one node at a time (stop, start, next) from 300 accepted pushes on. Nothing is lost; duplicates stay within one prefetch window (200) per node.",
            jobs: FaultJob.alerts("rolling", count: 10000), latency: 500, duplicates: 600
        )
        scenario.timeout = .seconds(300)
        scenario.action = { run in
            try await run.waitForAccepted(300)
            for node in ["1", "2", "3"] {
                try await run.cluster("stop-node", node)
                try await Task.sleep(for: .seconds(2))
                try await run.cluster("restart", node)
            }
        }
        return scenario
    }

    /// A fleet on a partitioned topology: three workers start at once (each declaring the topology,
    /// against Khepri on the 4.0 tier), jobs spread over three quorum queues whose leaders the broker
    /// balances, and the nodes restart one at a time under load.
    @Sendable static func clusterPartitionsRolling() -> FaultScenario {
        var scenario = clusterScenario(
            "cluster-partitions-rolling",
            "18,000 jobs spread over three partitions (topology.partitions 3: three quorum queues behind an x-random exchange), a fleet of three workers started at once, each declaring the topology (on the 4.0 tier against Khepri). APNs answers in 1 s, so the load outlasts the restarts. From 500 accepted pushes the three nodes restart one at a time (stop, start, next). Nothing is lost; duplicates stay within what the stopped nodes' connections held: one prefetch window (200) per worker per node stopped (a worker that lost its node reconnects to the next one, so a later stop can take two or three workers at once).",
            jobs: FaultJob.alerts("partitions", count: 18_000), latency: 1000, duplicates: 3 * 3 * 200
        )
        scenario.fleet = 3
        scenario.settings = { $0.topology.partitions = 3 }
        scenario.timeout = .seconds(300)
        scenario.action = { run in
            try await run.waitForAccepted(500)
            for node in ["1", "2", "3"] {
                try await run.cluster("stop-node", node)
                try await Task.sleep(for: .seconds(2))
                try await run.cluster("restart", node)
            }
        }
        scenario.notes = { outcome in
            let byWorker = Dictionary(grouping: outcome.results, by: \.worker).mapValues(\.count)
            return "results by worker " + byWorker.sorted { $0.key < $1.key }.map { "\($0.value)" }.joined(separator: " / ")
        }
        return scenario
    }

    @Sendable static func clusterRetriesAndDeadLetters() -> FaultScenario {
        let kinds: [JobFactory.Kind] = [.tooLarge, .wrongType, .notJSON, .unknownTopic]
        var jobs = FaultJob.alerts("tiers", count: 2000)
        for index in 0..<200 { jobs.insert(FaultJob.kind(kinds[index % kinds.count], id: "tiers-poison-\(index)"), at: index * 10) }
        var scenario = clusterScenario(
            "cluster-retries-dead-letters",
            "2,200 jobs on a three-node cluster: APNs answers a fifth of all requests 503 (so jobs travel through the retry tiers) and 200 jobs are poison (dead letters). At 500 accepted pushes the node leading every queue, the retry tiers' and the dead-letter queue's included, gets `kill -9`, and is restarted 5 s later. Every retried job comes back and is delivered, every dead letter arrives intact.",
            jobs: jobs, latency: 100, duplicates: 200
        )
        scenario.settings = {
            $0.worker.maxAttempts = 10
            $0.topology.retryTiers = [.milliseconds(500), .seconds(1), .seconds(2)]
        }
        scenario.mock = {
            $0.faults.latency = .fixed(milliseconds: 100)
            $0.faults.errorRate = 0.2
            $0.faults.errorStatus = 503
        }
        scenario.maximumRequests = { $0.scenario.jobs.count * 2 + 200 }
        scenario.action = killNodeOne(atAccepted: 500)
        scenario.checks = { outcome in
            var problems = noNackTreatedAsUnroutable(outcome)
            if !outcome.finalResults.values.contains(where: { $0.attempts > 1 }) { problems.append("no job went through a retry tier") }
            return problems
        }
        scenario.notes = { outcome in
            let retried = outcome.finalResults.values.filter { $0.attempts > 1 }.count
            return "\(retried) jobs retried (up to \(outcome.finalResults.values.map(\.attempts).max() ?? 0) attempts), \(outcome.workerDeadLetters.count) dead letters"
        }
        return scenario
    }

    @Sendable static func clusterFleet() -> FaultScenario {
        var scenario = clusterScenario(
            "cluster-fleet",
            "6,000 jobs, a fleet of three worker processes spread over the three nodes (APNs answering in 1 s). At 1,000 accepted pushes one worker gets SIGTERM and must drain and exit 0; at 2,500 another gets `kill -9` and a new process takes its place. Duplicates stay within the killed worker's prefetch window (200); the newcomer publishes results.",
            jobs: FaultJob.alerts("fleet", count: 6000), latency: 1000, duplicates: 200
        )
        scenario.fleet = 3
        scenario.action = { run in
            try await run.waitForAccepted(1000)
            let drained = await run.fleet[1].terminate()
            run.note("SIGTERM to worker 1 at 1000 accepted: exit \(drained.map(String.init) ?? "?")")
            try await run.waitForAccepted(2500)
            await run.fleet[2].kill()
            run.record("worker-2 results at its kill", Double(run.resultsBy(worker: "\(run.settings.worker.name)-2")))
            try run.fleet[2].launch()
            run.note("kill -9 to worker 2 at 2500 accepted, a new worker 2 started")
        }
        scenario.checks = { outcome in
            var problems = noNackTreatedAsUnroutable(outcome)
            if outcome.fleetExitStatuses.count != 3 || outcome.fleetExitStatuses[1] != [0] || outcome.fleetExitStatuses[2].first != SIGKILL {
                problems.append("fleet exit statuses \(outcome.fleetExitStatuses): expected worker 1 [0] and worker 2 [9, 0]")
            }
            let byWorker = Dictionary(grouping: outcome.results, by: \.worker).mapValues(\.count)
            let beforeKill = Int(outcome.facts["worker-2 results at its kill"] ?? -1)
            if (byWorker["\(outcome.settings.worker.name)-2"] ?? 0) <= beforeKill {
                problems.append("the new worker 2 published no result (\(byWorker))")
            }
            return problems
        }
        scenario.notes = { outcome in
            let byWorker = Dictionary(grouping: outcome.results, by: \.worker).mapValues(\.count)
            return "results by worker " + byWorker.sorted { $0.key < $1.key }.map { "\($0.value)" }.joined(separator: " / ")
        }
        return scenario
    }

    /// `kill -9` of node 1 (the worker's node and every queue's leader) once `accepted` pushes were
    /// accepted, and its restart 5 s later.
    static func killNodeOne(atAccepted accepted: Int) -> @Sendable (FaultRun) async throws -> Void {
        { run in
            try await run.waitForAccepted(accepted)
            try await run.cluster("kill", "1")
            try await Task.sleep(for: .seconds(5))
            try await run.cluster("restart", "1")
        }
    }

    /// A nack during a leader election is transient: the worker must not call it a routing problem
    /// (the defect this tier was written for: 1,500 "cannot be routed" lines and as many duplicates).
    @Sendable static func noNackTreatedAsUnroutable(_ outcome: FaultOutcome) -> [String] {
        let logs = outcome.logPaths.map { (try? String(contentsOfFile: $0, encoding: .utf8)) ?? "" }
        let unroutable = logs.map { $0.components(separatedBy: "cannot be routed").count - 1 }.reduce(0, +)
        return unroutable == 0 ? [] : ["the fleet logged \(unroutable) results as unroutable during a node's loss"]
    }
}
