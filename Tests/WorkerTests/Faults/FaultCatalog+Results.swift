import AMQP
import APNsCore
import DeadLetterTools
import Foundation
import MockAPNs
import TestSupport
import Worker
import WorkerConfiguration

/// Results have nowhere to go: no job may be acked without its result, and the operator must see it.
extension FaultCatalog {
    @Sendable static func resultsQueueMissing() -> FaultScenario {
        resultsUnroutable(
            name: "results-queue-missing", deleteExchange: false,
            summary: "The results queue is deleted, so the results exchange routes results nowhere (the broker returns them)"
        )
    }

    @Sendable static func resultsExchangeMissing() -> FaultScenario {
        resultsUnroutable(
            name: "results-exchange-missing", deleteExchange: true,
            summary: "The results exchange itself is deleted (and its queue), so every result publish fails with 404 NOT_FOUND"
        )
    }

    /// The worker runs with `declare_topology: false` (as with provisioned topology, so it does not
    /// re-create what was deleted), then 50 jobs arrive. None may be acked: each is redelivered until the
    /// jobs queue's delivery limit dead-letters it, and `amqp_unroutable_total` must rise. Then the
    /// topology is declared again and the dead letters re-published, as an operator would.
    private static func resultsUnroutable(name: String, deleteExchange: Bool, summary: String) -> FaultScenario {
        let jobs = 50
        var scenario = FaultScenario(
            name: name,
            summary: summary + "; the worker runs with `declare_topology: false`, as with provisioned topology, and 50 jobs arrive. "
                + "No job may be acked: each is redelivered until the jobs queue's delivery limit (20) dead-letters it, and `amqp_unroutable_total` must rise; "
                + "a redelivery publishes the outcome the worker remembers instead of pushing again. "
                + "Then the topology is declared again and the dead letters replayed, as `apns-worker dead-letters replay` does: every job completes, none pushed twice.",
            jobs: FaultJob.alerts(name, count: jobs)
        )
        scenario.environment = ["APNS_WORKER__WORKER__DECLARE_TOPOLOGY": "false"]
        scenario.allowsBrokerDeadLetters = true
        // A redelivery reuses the remembered outcome, waiting for it when its first delivery is still at
        // APNs; the slack covers one redelivered before its first delivery's task began.
        scenario.maximumDuplicateAPNsIDs = 2
        scenario.maximumRequests = { $0.scenario.jobs.count + 2 }
        scenario.timeout = .seconds(150)
        scenario.prepare = { run in
            let client = try await run.client("saboteur")
            if let queue = run.settings.topology.resultsQueue { try await client.deleteQueue(queue) }
            if deleteExchange { try await client.deleteExchange(run.settings.topology.resultsExchange) }
            await client.close()
        }
        scenario.action = { run in
            let limited = { run.deadLetters.messages.filter { !FaultOutcome.isWorkerDeadLetter($0) } }
            try await run.waitUntil("every job dead-lettered by the delivery limit", timeout: .seconds(90)) { limited().count >= jobs }
            let unroutable = try run.metric("amqp_unroutable_total") ?? 0
            let requeued = try run.metric("apns_jobs_requeued_total") ?? 0
            run.record("unroutable", unroutable)
            run.record("acked", try run.metric("apns_jobs_acked_total") ?? 0)
            run.record("resultsDuringOutage", Double(run.results.count))
            run.note("outage: \(run.mock.recorder.snapshot.requests) APNs requests, \(Int(requeued)) requeued, amqp_unroutable_total \(Int(unroutable))")
            try await run.declareTopology()
            // As `apns-worker dead-letters replay` publishes them: marked replayed, so the worker answers
            // a job APNs already accepted from memory instead of pushing it again.
            try await run.publish(limited().map(\.body), headers: [ReplayedJob.replayedAtHeader: .string(UTCTimestamp.string(Date()))])
            run.note("\(limited().count) dead letters replayed")
        }
        scenario.checks = { outcome in
            var problems: [String] = []
            if (outcome.facts["unroutable"] ?? 0) <= 0 { problems.append("amqp_unroutable_total stayed 0 while results had nowhere to go: no alarm") }
            if (outcome.facts["acked"] ?? -1) != 0 { problems.append("\(outcome.facts["acked"] ?? -1) jobs acked without a result") }
            if (outcome.facts["resultsDuringOutage"] ?? -1) != 0 { problems.append("results arrived while they had nowhere to go") }
            if outcome.brokerDeadLetters.count != jobs { problems.append("\(outcome.brokerDeadLetters.count) jobs reached the delivery limit, expected \(jobs)") }
            // One push per job, however often it is redelivered.
            let ceiling = 2
            if let worst = outcome.recorded.acceptedByAPNsID.values.max(), worst > ceiling { problems.append("a push was accepted \(worst) times, more than \(ceiling)") }
            return problems
        }
        return scenario
    }
}
