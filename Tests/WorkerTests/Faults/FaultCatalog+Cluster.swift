import Foundation
import MockAPNs
import Worker

/// The cluster tier: three RabbitMQ nodes (`scripts/rabbitmq-cluster.sh`), the worker given all three
/// and connected to node 1, which also leads every queue. Losing a node costs a leader election (the
/// broker nacks publishes for a few seconds) and, for the worker's own node, a reconnect: at-least-once
/// must hold, and duplicates stay within one prefetch window (200) per node lost.
extension FaultCatalog {
    @Sendable static func clusterLeaderKill() -> FaultScenario {
        var scenario = FaultScenario(
            name: "cluster-leader-kill",
            summary: "3,000 jobs on a three-node cluster; at 600 accepted pushes the node that leads every queue and holds the worker's connection gets `kill -9`, and is restarted 5 s later. The worker reconnects to another node; results nacked during the leader elections are published again in place, not requeued as unroutable. Duplicates stay within one prefetch window (200).",
            jobs: FaultJob.alerts("leader", count: 3000)
        )
        scenario.cluster = true
        scenario.timeout = .seconds(240)
        scenario.mock = { $0.faults.latency = .fixed(milliseconds: 5) }
        scenario.maximumDuplicateResults = 200
        scenario.maximumDuplicateAPNsIDs = 200
        scenario.maximumRequests = { $0.scenario.jobs.count + 200 }
        scenario.action = { run in
            try await run.waitForAccepted(600)
            try await run.cluster("kill", "1")
            try await Task.sleep(for: .seconds(5))
            try await run.cluster("restart", "1")
        }
        scenario.checks = noNackTreatedAsUnroutable
        return scenario
    }

    @Sendable static func clusterNodeStop() -> FaultScenario {
        var scenario = FaultScenario(
            name: "cluster-node-stop",
            summary: "3,000 jobs on a three-node cluster; at 600 accepted pushes the node the worker is connected to (and the queues' leader) stops cleanly while the other two go on; it starts again at 2,000. Duplicates stay within one prefetch window (200).",
            jobs: FaultJob.alerts("stop", count: 3000)
        )
        scenario.cluster = true
        scenario.timeout = .seconds(240)
        scenario.mock = { $0.faults.latency = .fixed(milliseconds: 5) }
        scenario.maximumDuplicateResults = 200
        scenario.maximumDuplicateAPNsIDs = 200
        scenario.maximumRequests = { $0.scenario.jobs.count + 200 }
        scenario.action = { run in
            try await run.waitForAccepted(600)
            try await run.cluster("stop-node", "1")
            try await run.waitForAccepted(2000)
            try await run.cluster("restart", "1")
        }
        scenario.checks = noNackTreatedAsUnroutable
        return scenario
    }

    @Sendable static func clusterRollingRestart() -> FaultScenario {
        var scenario = FaultScenario(
            name: "cluster-rolling-restart",
            summary: "6,000 jobs on a three-node cluster, restarted one node at a time (stop, start, next) from 300 accepted pushes on. Nothing is lost; duplicates stay within one prefetch window (200) per node.",
            jobs: FaultJob.alerts("rolling", count: 6000)
        )
        scenario.cluster = true
        scenario.timeout = .seconds(300)
        scenario.mock = { $0.faults.latency = .fixed(milliseconds: 5) }
        scenario.maximumDuplicateResults = 600
        scenario.maximumDuplicateAPNsIDs = 600
        scenario.maximumRequests = { $0.scenario.jobs.count + 600 }
        scenario.action = { run in
            try await run.waitForAccepted(300)
            for node in ["1", "2", "3"] {
                try await run.cluster("stop-node", node)
                try await Task.sleep(for: .seconds(2))
                try await run.cluster("restart", node)
            }
        }
        scenario.checks = noNackTreatedAsUnroutable
        return scenario
    }

    /// A nack during a leader election is transient: the worker must not call it a routing problem
    /// (the defect this tier was written for: 1,500 "cannot be routed" lines and as many duplicates).
    @Sendable static func noNackTreatedAsUnroutable(_ outcome: FaultOutcome) -> [String] {
        let log = (try? String(contentsOfFile: outcome.logPath, encoding: .utf8)) ?? ""
        let unroutable = log.components(separatedBy: "cannot be routed").count - 1
        return unroutable == 0 ? [] : ["the worker logged \(unroutable) results as unroutable during a node's loss"]
    }
}
