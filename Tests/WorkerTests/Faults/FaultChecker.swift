import AMQP
import APNsCore
import Foundation
import MockAPNs
import TestSupport
@testable import Worker
import WorkerConfiguration

/// The checks every scenario shares, over results and the mock's record.
///
/// - lost: a job that must have a result has none; unexpected: a result for a job never sent;
///   conflicting: one job, two different statuses (all three from ``ResultAudit``);
/// - duplicates: result messages beyond one per job; duplicate apns-ids: pushes APNs accepted twice;
/// - a delivered result the mock never accepted is a lie; a push the mock accepted for no job we sent,
///   a stranger; an attempt count above `max_attempts`, a retry loop that does not stop.
struct FaultAudit: Sendable {
    let base: ResultAudit
    let wrongOutcomes: [String]
    /// The jobs whose apns-id APNs accepted more than once (an id of no job sent shows as itself).
    let duplicateAPNsIDs: [String]
    let deliveredNotAccepted: [String]
    let strangers: Int
    let overAttempts: [String]
    let attempts: Int

    init(_ outcome: FaultOutcome) {
        let scenario = outcome.scenario
        base = ResultAudit(sent: scenario.expectedIDs, results: outcome.results)
        let finals = outcome.finalResults
        var wrong: [String] = []
        for job in scenario.jobs where !job.outcomes.isEmpty {
            guard let result = finals[job.id], !job.outcomes.contains(where: { $0.matches(result) }) else { continue }
            wrong.append("\(job.id): \(result.status.rawValue) \(result.reason ?? "") (expected \(job.outcomes.map(\.description).joined(separator: " or ")))")
        }
        wrongOutcomes = wrong.sorted()
        let accepted = outcome.recorded.acceptedByAPNsID
        deliveredNotAccepted = outcome.results.filter { $0.status == .delivered && accepted[$0.apnsID?.lowercased() ?? ""] == nil }.compactMap(\.id)
        let jobsByAPNsID = Dictionary(scenario.jobs.map { (APNsID.derived(fromJobID: $0.id).value.lowercased(), $0.id) }, uniquingKeysWith: { first, _ in first })
        duplicateAPNsIDs = outcome.recorded.duplicateAPNsIDs.keys.map { jobsByAPNsID[$0.lowercased()] ?? $0 }.sorted()
        strangers = accepted.keys.filter { jobsByAPNsID[$0.lowercased()] == nil }.count
        let maximum = outcome.settings.worker.maxAttempts
        overAttempts = outcome.results.filter { $0.attempts > maximum }.map { "\($0.id ?? "?"): \($0.attempts)" }
        attempts = finals.values.reduce(0) { $0 + $1.attempts }
    }

    /// The shared invariants `outcome` breaks, each as a sentence; empty when all hold.
    static func violations(_ outcome: FaultOutcome) -> [String] {
        let audit = outcome.audit
        let scenario = outcome.scenario
        var problems: [String] = []
        if let error = outcome.error { problems.append("the run failed: \(error)") }
        if let last = outcome.exitStatuses.last, last != 0 { problems.append("the last worker process exited with \(last), not 0") }
        if !audit.base.lost.isEmpty { problems.append("\(audit.base.lost.count) lost, e.g. \(audit.base.lost.sorted().prefix(5).map { $0.prefix(80) })") }
        if !audit.base.unexpected.isEmpty { problems.append("\(audit.base.unexpected.count) unexpected, e.g. \(audit.base.unexpected.sorted().prefix(5).map { $0.prefix(80) })") }
        if !audit.base.conflicting.isEmpty { problems.append("\(audit.base.conflicting.count) conflicting, e.g. \(audit.base.conflicting.sorted().prefix(5).map { $0.prefix(80) })") }
        if outcome.undecodable > 0 { problems.append("\(outcome.undecodable) messages on the results queue are not results") }
        if !audit.wrongOutcomes.isEmpty { problems.append("\(audit.wrongOutcomes.count) wrong outcomes, e.g. \(audit.wrongOutcomes.prefix(3))") }
        if audit.base.duplicates > scenario.maximumDuplicateResults {
            problems.append("\(audit.base.duplicates) duplicate results, more than the \(scenario.maximumDuplicateResults) allowed")
        }
        if audit.duplicateAPNsIDs.count > scenario.maximumDuplicateAPNsIDs {
            problems.append("\(audit.duplicateAPNsIDs.count) apns-ids accepted more than once, more than the \(scenario.maximumDuplicateAPNsIDs) allowed, e.g. jobs \(audit.duplicateAPNsIDs.prefix(5))")
        }
        if !audit.deliveredNotAccepted.isEmpty { problems.append("\(audit.deliveredNotAccepted.count) delivered results the mock never accepted, e.g. \(audit.deliveredNotAccepted.prefix(3))") }
        if audit.strangers > 0 { problems.append("the mock accepted \(audit.strangers) apns-ids of no job sent") }
        if !audit.overAttempts.isEmpty { problems.append("attempts above max_attempts: \(audit.overAttempts.prefix(3))") }
        let ceiling = scenario.maximumRequests?(outcome) ?? scenario.jobs.count * outcome.settings.worker.maxAttempts
        if outcome.recorded.requests > ceiling { problems.append("hot loop? \(outcome.recorded.requests) APNs requests, more than \(ceiling)") }
        let dead = outcome.workerDeadLetters.count
        if dead < scenario.expectedDeadLetters || dead > scenario.expectedDeadLetters + scenario.maximumDuplicateResults {
            problems.append("\(dead) dead letters from the worker, expected \(scenario.expectedDeadLetters)")
        }
        if !scenario.allowsBrokerDeadLetters, !outcome.brokerDeadLetters.isEmpty {
            problems.append("\(outcome.brokerDeadLetters.count) jobs dead-lettered by the broker (delivery limit)")
        }
        return problems
    }
}
