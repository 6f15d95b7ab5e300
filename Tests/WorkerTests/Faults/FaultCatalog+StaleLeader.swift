import Foundation
import MockAPNs
import WorkerConfiguration

extension FaultCatalog {
    /// RabbitMQ 3.10.8 binds a channel's first publish to a quorum queue to the leader the queue's
    /// record names at that moment. Met while the record still names a node that has stopped, the
    /// channel is nacked for as long as that node stays down, though the queue elected a new leader
    /// and its record was put right (tried by hand with pika: 0 of 5 confirmed on that channel before
    /// and after the record was fixed, 5 of 5 on a new channel). A worker that only republished on
    /// the same channel stalled until the node came back: `make faults-cluster` caught it once in
    /// cluster-node-stop, whose node returns only at 2,500 pushes. This scenario makes that race
    /// certain instead of rare.
    ///
    /// RabbitMQ 4.x (like 3.12.5 and later) asks `ra_leaderboard` for the leader instead: there the
    /// same fault must cost nothing, and the worker, knowing the release, never reopens for it.
    @Sendable static func clusterStaleLeader() -> FaultScenario {
        let stale = brokerVersion == "3.10"
        var scenario = clusterScenario(
            "cluster-stale-leader",
            "8,000 jobs on a three-node cluster (APNs answering in 500 ms, so the load outlasts the node's stop). At 600 accepted pushes node 1, the worker's node and every queue's leader, stops, and stays down until every job is answered. "
                + "Once the results queue has a new leader, its record is set back to node 1 and the worker's connections (one per shard) are closed, so the worker's next channels meet the record a channel meets before the new leader writes it; "
                + (stale ? "once a channel has been nacked, the record is put right (closing again after 8 s without a nack, since a channel that first published while the new leader's tick had put the record right is never nacked). " : "it is put right once the worker has published on a new channel. ")
                + "On RabbitMQ 3.10 such a channel is nacked for good: the worker must replace its connection when its republishes run out, and finish without node 1. "
                + "On 4.0 a channel finds the new leader itself: the worker must finish without a reopen. "
                + "Duplicate pushes stay within the prefetch window (200) that the replaced connections held.",
            jobs: FaultJob.alerts("stale", count: 8000), latency: 500, duplicates: 200
        )
        scenario.action = { run in
            try await run.waitForAccepted(600)
            try await run.cluster("stop-node", "1")
            let results = run.settings.topology.resultsQueue!
            var leader: String?
            try await run.waitUntil("a new leader of the results queue", timeout: .seconds(30)) {
                leader = try run.recordedLeader(of: results, askingNode: "2")
                return leader != nil && leader != "rabbit1@localhost"
            }
            let nacked = try run.metric("amqp_publish_nacked_total") ?? 0
            try await run.setRecordedLeader(of: results, to: "rabbit1@localhost", askingNode: "2", thenClose: run.settings.amqp.connectionName)
            run.note("results record set to rabbit1 and the worker's connections closed at \(run.mock.recorder.snapshot.accepted) accepted")
            // Put right (as the new leader would) once the worker's new channel has met the stale record:
            // on 3.10 it is nacked; on 4.0 it publishes results.
            if stale {
                let clock = ContinuousClock()
                var closed = clock.now
                try await run.waitUntil("a nack on the worker's new connection", timeout: .seconds(45)) { () async throws -> Bool in
                    if try (run.metric("amqp_publish_nacked_total") ?? 0) > nacked { return true }
                    // The new leader's tick puts the record right every few seconds; a worker slow to
                    // reconnect (a loaded machine) would meet the right one. Keep it stale until it met it.
                    // A new channel whose first publish fell in such a moment is bound to the right
                    // leader for good: after 8 s without a nack, the connections are closed again.
                    let again = clock.now - closed > .seconds(8)
                    try await run.setRecordedLeader(of: results, to: "rabbit1@localhost", askingNode: "2", thenClose: again ? run.settings.amqp.connectionName : nil)
                    if again {
                        closed = clock.now
                        run.note("closed again at \(run.mock.recorder.snapshot.accepted) accepted: no nack within 8 s")
                    }
                    return false
                }
            } else {
                let results = run.results.count
                try await run.waitUntil("results from the worker's new connection", timeout: .seconds(30)) { run.results.count > results + 50 }
            }
            run.record("nacked", try run.metric("amqp_publish_nacked_total") ?? 0)
            try await run.setRecordedLeader(of: results, to: leader ?? "rabbit2@localhost", askingNode: "2")
            try await run.waitForAccepted(run.scenario.jobs.count)
            try await run.cluster("restart", "1")
        }
        scenario.checks = { outcome in
            var problems = noNackTreatedAsUnroutable(outcome)
            if stale, reopenings(outcome) == 0 {
                problems.append("the worker never reopened its connection: its channel never met the stale record, so this run tried nothing")
            }
            if !stale, reopenings(outcome) > 0 {
                problems.append("the worker reopened its connection \(reopenings(outcome)) time(s) on RabbitMQ \(brokerVersion), which needs no reopen")
            }
            return problems
        }
        scenario.notes = { outcome in "connection reopened \(reopenings(outcome)) time(s)" }
        return scenario
    }

    /// How often the worker replaced its connection because publishes kept being nacked.
    private static func reopenings(_ outcome: FaultOutcome) -> Int {
        let log = (try? String(contentsOfFile: outcome.logPath, encoding: .utf8)) ?? ""
        return log.components(separatedBy: "AMQP connection reopened").count - 1
    }
}
