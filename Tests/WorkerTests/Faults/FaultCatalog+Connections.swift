import AMQP
import APNsCore
import Foundation
import MockAPNs
import TestSupport
import Worker
import WorkerConfiguration

/// Scenarios where APNs' connections misbehave: GOAWAY, TCP and stream resets, stalls. Nothing the
/// broker redelivers, so no duplicate results; a push is accepted twice only after an unknown outcome.
extension FaultCatalog {
    @Sendable static func goAway() -> FaultScenario {
        var scenario = FaultScenario(
            name: "goaway",
            summary: "1,000 jobs, every fourth in the urgent lane and the one after it in a team lane; the mock sends GOAWAY after every 100 streams on a connection. What APNs did not process is re-sent on another connection, transparently: no duplicate, and no attempt counted for it (APNs requests = attempts). "
                + "Under load, two connections draining at once can make a burst wait too long for a stream, which shows the known issue below.",
            jobs: FaultJob.mixingLanes(FaultJob.alerts("goaway", count: 1000), everyNth: 4)
        )
        scenario.mock = { $0.faults.goAwayAfterStreams = 100 }
        scenario.checks = { outcome in
            // What APNs did not process is re-sent by the client without costing an attempt.
            var problems = attemptsAccountForDuplicates(outcome) + everyAttemptIsARequest(outcome)
            if outcome.recorded.goAwaysSent < 5 { problems.append("only \(outcome.recorded.goAwaysSent) GOAWAYs sent") }
            return problems
        }
        scenario.notes = { "\($0.recorded.goAwaysSent) GOAWAYs, \($0.recorded.connectionsOpened) connections" }
        return scenario
    }

    @Sendable static func tcpReset() -> FaultScenario {
        var scenario = FaultScenario(
            name: "tcp-reset",
            summary: "2,000 jobs; the mock resets the TCP connection (RST, no TLS goodbye) after 500 requests on each connection. "
                + "Requests in flight have an unknown outcome: the worker retries them (5 attempts), so a push may be accepted twice, never more often than its job's attempts.",
            jobs: (0..<2000).map { FaultJob(id: "rst-\($0)", body: JobFactory.alert(id: "rst-\($0)"), outcomes: [.delivered, FaultJob.Outcome(status: .failed, reason: nil)]) }
        )
        scenario.mock = { $0.faults.closeAfterStreams = 500 }
        scenario.settings = { $0.worker.maxAttempts = 5 }
        scenario.maximumDuplicateAPNsIDs = 2000
        scenario.checks = { outcome in
            var problems = attemptsAccountForDuplicates(outcome)
            if outcome.recorded.connectionsClosedAbruptly == 0 { problems.append("no connection was reset") }
            return problems
        }
        scenario.notes = { outcome in
            let failed = outcome.finalResults.values.filter { $0.status == .failed }.count
            return "\(outcome.recorded.connectionsClosedAbruptly) requests met a reset connection, \(outcome.recorded.connectionsOpened) connections, "
                + "\(outcome.audit.attempts - outcome.scenario.jobs.count) retries, \(failed) failed after 5 attempts"
        }
        return scenario
    }

    @Sendable static func streamReset() -> FaultScenario {
        var scenario = FaultScenario(
            name: "stream-reset",
            summary: "1,000 jobs; every 20th request on a connection is refused (RST_STREAM REFUSED_STREAM: not processed, re-sent by the client without costing an attempt) "
                + "and every 25th reset (RST_STREAM INTERNAL_ERROR: outcome unknown, retried by the worker through a tier). Worker retries = resets.",
            jobs: FaultJob.alerts("rst-stream", count: 1000)
        )
        scenario.mock = {
            $0.faults.refuseEvery = 20
            $0.faults.resetEvery = 25
        }
        // A job whose every try lands on a 25th request fails legitimately. With the harness's 3
        // attempts that came to a few runs in a hundred once shards made the order of requests on each
        // connection vary (a job reset three times); six make it about one in a million.
        scenario.settings = { $0.worker.maxAttempts = 6 }
        scenario.maximumRequests = { $0.scenario.jobs.count * $0.settings.worker.maxAttempts * 2 }
        scenario.checks = { outcome in
            var problems = attemptsAccountForDuplicates(outcome)
            let recorded = outcome.recorded
            if recorded.streamsRefused == 0 || recorded.streamsReset == 0 { problems.append("refused \(recorded.streamsRefused), reset \(recorded.streamsReset): a fault did not fire") }
            let retries = outcome.audit.attempts - outcome.scenario.jobs.count
            if retries != recorded.streamsReset { problems.append("\(retries) worker retries for \(recorded.streamsReset) resets (refusals must cost none)") }
            return problems
        }
        scenario.notes = { "\($0.recorded.streamsRefused) refused, \($0.recorded.streamsReset) reset, \($0.audit.attempts - $0.scenario.jobs.count) retries" }
        return scenario
    }

    @Sendable static func stallTimeout() -> FaultScenario {
        var scenario = FaultScenario(
            name: "stall-timeout",
            summary: "1,000 jobs; the mock never answers every 40th request on a connection. The 1 s request timeout fires, "
                + "the stream is reset, and the job is retried through a tier (the outcome was unknown: the mock did not accept it). Worker retries = stalls; no push accepted twice.",
            jobs: FaultJob.alerts("stall", count: 1000)
        )
        scenario.mock = { $0.faults.stallEvery = 40 }
        // Six attempts, as in stream-reset: a job stalled on every try would fail legitimately.
        scenario.settings = {
            $0.apns.requestTimeout = .seconds(1)
            $0.worker.maxAttempts = 6
        }
        scenario.checks = { outcome in
            var problems = attemptsAccountForDuplicates(outcome)
            let stalled = outcome.recorded.streamsStalled
            if stalled == 0 { problems.append("no request stalled") }
            let retries = outcome.audit.attempts - outcome.scenario.jobs.count
            if retries != stalled { problems.append("\(retries) worker retries for \(stalled) stalls") }
            return problems
        }
        scenario.notes = { "\($0.recorded.streamsStalled) stalls past the 1 s timeout, \($0.audit.attempts - $0.scenario.jobs.count) retries" }
        return scenario
    }

    /// Without broker redeliveries, APNs can only have accepted a job's push as often as the job was
    /// attempted, and a delivered job at least once.
    static func attemptsAccountForDuplicates(_ outcome: FaultOutcome) -> [String] {
        let attemptsByAPNsID = Dictionary(
            outcome.finalResults.map { (APNsID.derived(fromJobID: $0.key).value.lowercased(), $0.value.attempts) },
            uniquingKeysWith: max
        )
        let excess = outcome.recorded.acceptedByAPNsID.filter { $0.value > (attemptsByAPNsID[$0.key.lowercased()] ?? 0) }
        return excess.isEmpty ? [] : ["\(excess.count) pushes accepted more often than their job was attempted, e.g. \(excess.prefix(3))"]
    }
}
