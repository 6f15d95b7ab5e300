import AMQP
import APNsCore
import Foundation
import MockAPNs
import TestSupport
import Worker
import WorkerConfiguration

/// Scenarios where APNs answers but refuses for a while: 503s, 429s, provider-token trouble. Retries
/// must follow the tiers (no hot loop), and every refusal must be accounted for.
extension FaultCatalog {
    @Sendable static func serviceUnavailableStorm() -> FaultScenario {
        let tiers: [Duration] = [.milliseconds(250), .milliseconds(500), .seconds(1), .seconds(2)]
        var scenario = FaultScenario(
            name: "503-storm",
            summary: "500 jobs; APNs answers every request 503 until it has refused 1,500, then recovers. Retries go through the tiers "
                + "(250 ms, 500 ms, 1 s, 2 s; 8 attempts): every APNs request is one counted attempt, and each job's latency covers the tiers it went through.",
            jobs: FaultJob.alerts("storm", count: 500)
        )
        scenario.settings = {
            $0.worker.maxAttempts = 8
            $0.topology.retryTiers = tiers
        }
        scenario.mock = {
            $0.faults.errorRate = 1
            $0.faults.errorStatus = 503
        }
        scenario.action = { run in
            let started = ContinuousClock.now
            try await run.waitUntil("1,500 refusals") { (run.mock.recorder.snapshot.rejectedByReason["ServiceUnavailable"] ?? 0) >= 1500 }
            run.mock.setFaults(MockFaults())
            run.note("storm of \(run.mock.recorder.snapshot.rejectedByReason["ServiceUnavailable"] ?? 0) × 503 over \(String(format: "%.1f", seconds(ContinuousClock.now - started))) s")
        }
        scenario.checks = { outcome in
            var problems = everyAttemptIsARequest(outcome) + retriesFollowTiers(outcome, tiers: tiers)
            let refused = outcome.recorded.rejectedByReason["ServiceUnavailable"] ?? 0
            if refused != outcome.audit.attempts - outcome.scenario.jobs.count { problems.append("\(refused) 503s but \(outcome.audit.attempts - outcome.scenario.jobs.count) retries") }
            if outcome.finalResults.values.contains(where: { $0.attempts < 2 }) { problems.append("a job got through the storm on its first attempt") }
            return problems
        }
        scenario.notes = { outcome in
            let attempts = outcome.finalResults.values.map(\.attempts)
            return "attempts \(attempts.min() ?? 0)–\(attempts.max() ?? 0) per job, \(outcome.recorded.requests) requests for \(outcome.scenario.jobs.count) jobs"
        }
        return scenario
    }

    @Sendable static func tooManyRequests() -> FaultScenario {
        let refusals = 150
        var scenario = FaultScenario(
            name: "429-retry-after",
            summary: "500 jobs; APNs answers the first 150 requests 429 with `Retry-After: 2`. Those jobs skip the 250 ms tier for the 2 s one and are delivered on their second attempt, no sooner than 2 s after publication.",
            jobs: FaultJob.alerts("throttle", count: 500)
        )
        scenario.settings = { $0.topology.retryTiers = [.milliseconds(250), .seconds(2), .seconds(5)] }
        scenario.mock = {
            $0.faults.forcedReason = "TooManyRequests"
            $0.faults.forcedReasonCount = refusals
            $0.faults.errorStatus = 429
            $0.faults.retryAfterSeconds = 2
        }
        scenario.checks = { outcome in
            var problems = everyAttemptIsARequest(outcome)
            let throttled = outcome.finalResults.values.filter { $0.attempts == 2 }
            if outcome.recorded.rejectedByReason["TooManyRequests"] != refusals { problems.append("\(outcome.recorded.rejectedByReason["TooManyRequests"] ?? 0) 429s, expected \(refusals)") }
            if throttled.count != refusals { problems.append("\(throttled.count) jobs took 2 attempts, expected \(refusals)") }
            let early = throttled.filter { ($0.latencyMS ?? 0) < 2000 - 50 }
            if !early.isEmpty { problems.append("\(early.count) throttled jobs retried before Retry-After, e.g. \(early.prefix(2).map { "\($0.id ?? "?"): \($0.latencyMS ?? 0) ms" })") }
            return problems
        }
        scenario.notes = { outcome in
            let latencies = outcome.finalResults.values.filter { $0.attempts == 2 }.compactMap(\.latencyMS)
            return "\(latencies.count) jobs retried after \(latencies.min() ?? 0)–\(latencies.max() ?? 0) ms (Retry-After: 2 s)"
        }
        return scenario
    }

    @Sendable static func expiredProviderToken() -> FaultScenario {
        tokenTrouble(
            name: "expired-provider-token", reason: "ExpiredProviderToken",
            summary: "500 jobs; APNs answers 10 requests 403 ExpiredProviderToken. A connection whose token is younger than 20 minutes may not take a new one, "
                + "so it is retired and the push re-sent on a fresh connection (or, past the client's re-send limit, retried through a tier). A refusal re-sent by the client costs no attempt: APNs requests = attempts + 10."
        )
    }

    @Sendable static func tooManyTokenUpdates() -> FaultScenario {
        tokenTrouble(
            name: "too-many-token-updates", reason: "TooManyProviderTokenUpdates",
            summary: "500 jobs; APNs answers 10 requests 429 TooManyProviderTokenUpdates. The connection is recycled and the push re-sent on another one, costing no attempt: APNs requests = attempts + 10."
        )
    }

    private static func tokenTrouble(name: String, reason: String, summary: String) -> FaultScenario {
        let refusals = 10
        var scenario = FaultScenario(name: name, summary: summary, jobs: FaultJob.alerts(name, count: 500))
        scenario.mock = {
            $0.faults.forcedReason = reason
            $0.faults.forcedReasonCount = refusals
        }
        scenario.maximumRequests = { $0.scenario.jobs.count * $0.settings.worker.maxAttempts + refusals }
        scenario.checks = { outcome in
            var problems = attemptsAccountForDuplicates(outcome) + everyAttemptIsARequest(outcome, refusals: refusals)
            if outcome.recorded.rejectedByReason[reason] != refusals { problems.append("\(outcome.recorded.rejectedByReason[reason] ?? 0) \(reason), expected \(refusals)") }
            if outcome.recorded.connectionsOpened < 2 { problems.append("no connection was replaced") }
            return problems
        }
        scenario.notes = { outcome in
            let histogram = Dictionary(grouping: outcome.finalResults.values, by: \.attempts).mapValues(\.count).sorted { $0.key < $1.key }.map { "\($0.key):\($0.value)" }
            return "\(outcome.recorded.rejectedByReason[reason] ?? 0) × \(reason), \(outcome.recorded.connectionsOpened) connections, \(outcome.recorded.requests) requests, attempts \(histogram)"
        }
        return scenario
    }

    /// Every APNs request the mock saw is an attempt some result counts: nothing is re-sent behind the
    /// policy's back.
    /// `refusals` are requests the client answered by itself with a re-send on another connection.
    static func everyAttemptIsARequest(_ outcome: FaultOutcome, refusals: Int = 0) -> [String] {
        outcome.recorded.requests == outcome.audit.attempts + refusals ? [] : ["\(outcome.recorded.requests) APNs requests but \(outcome.audit.attempts) attempts in the results"]
    }

    /// Each job's latency (from publication) is at least the tier delays of its retries: no retry came early.
    static func retriesFollowTiers(_ outcome: FaultOutcome, tiers: [Duration]) -> [String] {
        let early = outcome.finalResults.values.filter { result in
            let floor = minimumRetryDelay(afterAttempts: result.attempts, tiers: tiers)
            return Double(result.latencyMS ?? 0) < seconds(floor) * 1000 - 50
        }
        return early.isEmpty ? [] : ["\(early.count) jobs retried sooner than their tiers allow, e.g. \(early.prefix(2).map { "\($0.id ?? "?"): \($0.attempts) attempts in \($0.latencyMS ?? 0) ms" })"]
    }

    static func seconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
    }
}
