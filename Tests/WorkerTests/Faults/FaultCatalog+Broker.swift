import AMQP
import APNsCore
import Foundation
import MockAPNs
import TestSupport
import Worker
import WorkerConfiguration

/// Scenarios where the worker process or the broker fails: at-least-once must hold, and the price is
/// duplicates, at most one prefetch window per failure.
extension FaultCatalog {
    @Sendable static func killNine() -> FaultScenario {
        var scenario = FaultScenario(
            name: "kill-9",
            summary: "3,000 jobs, every fourth in the urgent lane and the one after it in a team lane; at 600 accepted pushes the worker gets SIGKILL, and a new worker process finishes the backlog. "
                + "Duplicate results and pushes stay within one window of the three lanes (prefetch 200 + urgent prefetch 100 + the team lane's 100).",
            jobs: FaultJob.mixingLanes(FaultJob.alerts("kill", count: 3000), everyNth: 4)
        )
        scenario.mock = { $0.faults.latency = .fixed(milliseconds: 5) }
        scenario.maximumDuplicateResults = 400
        scenario.maximumDuplicateAPNsIDs = 400
        scenario.maximumRequests = { $0.scenario.jobs.count + 400 }
        scenario.action = { run in
            try await run.waitForAccepted(600)
            await run.worker.kill()
            run.note("killed at \(run.mock.recorder.snapshot.accepted) accepted")
            try run.worker.launch()
        }
        scenario.checks = { outcome in
            outcome.exitStatuses.first == SIGKILL ? [] : ["the first worker was not killed: \(outcome.exitStatuses)"]
        }
        return scenario
    }

    @Sendable static func sigterm() -> FaultScenario {
        var scenario = FaultScenario(
            name: "sigterm",
            summary: "3,000 jobs; at 600 accepted pushes the worker gets SIGTERM, drains its in-flight jobs and exits 0; a new process finishes. No duplicates allowed.",
            jobs: FaultJob.alerts("term", count: 3000)
        )
        scenario.mock = { $0.faults.latency = .fixed(milliseconds: 5) }
        scenario.action = { run in
            try await run.waitForAccepted(600)
            let status = await run.worker.terminate()
            run.note("stopped at \(run.mock.recorder.snapshot.accepted) accepted, exit \(status.map(String.init) ?? "?")")
            try run.worker.launch()
        }
        scenario.checks = { outcome in
            outcome.exitStatuses.count == 2 && outcome.exitStatuses.allSatisfy { $0 == 0 } ? [] : ["worker exit statuses \(outcome.exitStatuses), expected [0, 0]"]
        }
        return scenario
    }

    @Sendable static func brokerRestart() -> FaultScenario {
        var scenario = FaultScenario(
            name: "broker-restart",
            summary: "3,000 jobs; after 600 requests APNs holds its answers, so a window of jobs is in flight, and the test broker is stopped (`scripts/rabbitmq.sh stop`); "
                + "APNs answers them while the broker is down, and the broker starts again. The same worker process reconnects and finishes; "
                + "the jobs it held are redelivered and answered from what APNs said, not pushed again. Duplicate results stay within one prefetch window (200).",
            jobs: FaultJob.alerts("restart", count: 3000)
        )
        scenario.mock = { mock in
            mock.faults.latency = .fixed(milliseconds: 5)
            // Held until the broker is down, however long its stop takes: without the hold the release
            // worker answered every job during a stop of 3.10 that closed connections last, so the
            // scenario restarted an idle broker.
            mock.faults.holdAfterRequests = 600
        }
        // Far above the hold: a request that timed out would have an unknown outcome and be retried,
        // a second push this scenario does not test.
        scenario.settings = { $0.apns.requestTimeout = .seconds(60) }
        scenario.maximumDuplicateResults = 200
        // The worker lives and remembers what APNs accepted; the slack is close-connection's (a
        // redelivery in the microseconds before its first delivery's task began).
        scenario.maximumDuplicateAPNsIDs = 2
        scenario.maximumRequests = { $0.scenario.jobs.count + 2 }
        scenario.timeout = .seconds(180)
        scenario.action = { run in
            try await run.waitForAccepted(600)
            let stopped = ContinuousClock.now
            try await run.restartBroker(whileDown: {
                let accepted = run.releaseHeldAnswers()
                run.record("downAt", Double(accepted))
                run.note("stopped at \(accepted) accepted")
            })
            run.note("broker down \(Int((ContinuousClock.now - stopped).components.seconds)) s")
            // The jobs APNs answered while the broker was down come back: each must be answered from
            // what APNs said, which is what this scenario is for.
            try await run.waitUntil("a redelivered job is answered from the worker's memory") {
                try (run.metric("apns_jobs_outcome_republished_total") ?? 0) > 0
            }
            run.note("\(Int(try run.metric("apns_jobs_outcome_republished_total") ?? 0)) answered from memory so far")
        }
        scenario.checks = { outcome in
            var problems = outcome.exitStatuses == [0] ? [] : ["one worker process should have run throughout: \(outcome.exitStatuses)"]
            if let downAt = outcome.facts["downAt"], downAt >= Double(outcome.scenario.jobs.count) {
                problems.append("the broker stopped after the last push: not mid-load")
            }
            return problems
        }
        return scenario
    }

    @Sendable static func closeConnection() -> FaultScenario {
        var scenario = FaultScenario(
            name: "close-connection",
            summary: "3,000 jobs; after 400 requests APNs holds its answers, so a full prefetch window is in flight, and `rabbitmqctl close_connection` "
                + "closes the worker's connection; then APNs answers them all. The jobs in flight cannot be acked any more and the broker redelivers them; the worker publishes nothing for the old deliveries, "
                + "and a redelivery waits for its first delivery to be answered and publishes that answer instead of pushing again. "
                + "The worker reconnects and finishes without pushing any job twice.",
            jobs: FaultJob.alerts("close", count: 3000)
        )
        scenario.mock = { mock in
            mock.faults.latency = .fixed(milliseconds: 5)
            // Held from request 400 until the close is done, however long rabbitmqctl takes on a loaded
            // machine (16 s was seen): a slowdown for a fixed time let the worker finish first.
            mock.faults.holdAfterRequests = 400
        }
        // Far above the hold: a request that timed out would have an unknown outcome and be retried,
        // a second push this scenario does not test.
        scenario.settings = { $0.apns.requestTimeout = .seconds(60) }
        // Every redelivery finds its first delivery at APNs or its outcome remembered; the slack covers
        // one that the broker redelivered in the microseconds before its first delivery's task began.
        scenario.maximumDuplicateResults = 2
        scenario.maximumDuplicateAPNsIDs = 2
        scenario.maximumRequests = { $0.scenario.jobs.count + 2 }
        scenario.action = { run in
            // Looked up first, so only one rabbitmqctl run stands between the moment and the close.
            var connection: String?
            try await run.waitUntil("the worker's broker connection is listed") {
                connection = try? await RabbitMQControl.connectionPID(named: run.settings.amqp.connectionName)
                return connection != nil
            }
            guard let connection else { throw TestFailure("the worker's broker connection was never listed") }
            try await run.waitForAccepted(300)
            try await RabbitMQControl.forceClose(connection: connection)
            let accepted = run.releaseHeldAnswers()
            run.record("closedAt", Double(accepted))
            run.note("closed at \(accepted) accepted")
        }
        scenario.checks = { outcome in
            guard let closedAt = outcome.facts["closedAt"] else { return ["the connection was never closed"] }
            return closedAt < Double(outcome.scenario.jobs.count) ? [] : ["the close came after the last push: not mid-load"]
        }
        return scenario
    }
}
