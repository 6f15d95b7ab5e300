import AMQP
import Foundation
import MockAPNs
import TestSupport
@testable import Worker

/// One bad job never hurts another: hostile jobs among good ones.
extension FaultCatalog {
    @Sendable static func hostileInput() -> FaultScenario {
        let hostile = HostileJobs.all
        var jobs: [FaultJob] = []
        let good = 10_000
        // One hostile job after every `step` good ones, the rest (if any) at the end.
        let step = good / hostile.count
        var next = 0
        for index in 0..<good {
            jobs.append(.alert("good-\(index)"))
            if index % step == step / 2, next < hostile.count {
                jobs.append(hostile[next])
                next += 1
            }
        }
        jobs += hostile[next...]
        var scenario = FaultScenario(
            name: "hostile-input",
            summary: "10,000 good jobs with \(hostile.count) hostile ones among them, from several publishers (this project's client, and pika for AMQP properties it refuses to write): "
                + "over-long and non-ASCII strings in every field, control characters, nesting 100 deep and a million brackets, numbers past 64 bits and past a double, wrong types, "
                + "bytes that are not UTF-8 in the body, keys, message_id, reply_to and header keys, bodies of 3 and 5 MiB, escaped and duplicate keys, byte-order marks, header tables "
                + "3,000 levels deep, forged retry headers, CC routing headers. Each hostile job with a readable id gets exactly one result (its failure code, or delivered when it is "
                + "valid after all), every failing one a dead letter byte for byte; no broker reconnect, no APNs connection reset or GOAWAY, no malformed header reaches APNs, "
                + "no forged log line.",
            jobs: jobs
        )
        scenario.timeout = .seconds(240)
        scenario.action = { run in
            let expected = run.scenario.expectedIDs.count
            try await run.waitUntil("every result and dead letter", timeout: .seconds(200)) {
                run.results.count >= expected && run.deadLetters.count >= run.scenario.expectedDeadLetters
            }
            let metrics = try FaultRun.get(port: run.metricsPort, path: "/metrics")
            run.record("generation", try run.metric("amqp_connection_generation") ?? -1)
            run.record("apnsReconnects", Self.sum("apns_reconnects_total", in: metrics))
            run.record("goAwaysSeen", Self.sum("apns_goaways_total", in: metrics))
        }
        scenario.checks = { outcome in
            var problems: [String] = []
            if outcome.facts["generation"] != 1 { problems.append("the worker connected to the broker \(outcome.facts["generation"] ?? -1) times, not once") }
            if outcome.facts["apnsReconnects", default: 0] != 0 { problems.append("\(outcome.facts["apnsReconnects"] ?? 0) APNs reconnects") }
            if outcome.facts["goAwaysSeen", default: 0] != 0 { problems.append("the worker saw GOAWAY") }
            let recorded = outcome.recorded
            if recorded.malformedRequests != 0 { problems.append("\(recorded.malformedRequests) malformed requests reached the mock") }
            if recorded.goAwaysSent + recorded.streamsReset + recorded.connectionsClosedAbruptly != 0 { problems.append("the mock reset streams or connections") }
            if !recorded.rejectedByReason.isEmpty { problems.append("APNs refused requests: \(recorded.rejectedByReason)") }
            problems += deadLettersAreIntact(outcome)
            problems += noForgedLogLines(outcome)
            return problems
        }
        scenario.notes = { outcome in
            let hostileResults = outcome.finalResults.filter { $0.key.hasPrefix("hostile") || !$0.key.hasPrefix("good-") }
            let codes = Dictionary(grouping: hostileResults.values) { $0.reason ?? $0.status.rawValue }.mapValues(\.count)
            return "\(hostile.count) hostile: " + codes.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", ")
                + "; \(outcome.workerDeadLetters.count) dead letters intact; broker connections \(Int(outcome.facts["generation"] ?? -1)), APNs connections \(outcome.recorded.connectionsOpened), "
                + "malformed requests at APNs \(outcome.recorded.malformedRequests)"
        }
        return scenario
    }

    /// The sum of every sample of a metric, whatever its labels.
    static func sum(_ metric: String, in text: String) -> Double {
        text.split(separator: "\n").filter { $0.hasPrefix(metric + "{") || $0.hasPrefix(metric + " ") }.compactMap { Double($0.split(separator: " ").last ?? "") }.reduce(0, +)
    }

    /// Dead letters are the failing jobs' bodies, byte for byte, each once.
    static func deadLettersAreIntact(_ outcome: FaultOutcome) -> [String] {
        let sent = outcome.scenario.jobs.filter(\.deadLetters).map(\.body)
        let received = outcome.workerDeadLetters.map(\.body)
        let counts = { (bodies: [[UInt8]]) in Dictionary(bodies.map { ($0, 1) }, uniquingKeysWith: +) }
        return counts(sent) == counts(received) ? [] : ["the dead letters are not the failing jobs byte for byte (\(received.count) dead letters for \(sent.count) failing jobs)"]
    }

    /// No line of the worker's log starts with what a job tried to forge.
    static func noForgedLogLines(_ outcome: FaultOutcome) -> [String] {
        guard let log = try? String(contentsOfFile: outcome.logPath, encoding: .utf8) else { return ["the worker's log cannot be read"] }
        let forged = log.split(whereSeparator: \.isNewline).filter { $0.hasPrefix(HostileJobs.forgedLine) || $0.hasPrefix("forged") || $0.hasPrefix("x-injected") }
        return forged.isEmpty ? [] : ["\(forged.count) forged lines in the worker's log, e.g. \(forged[0].prefix(80))"]
    }
}
