import AMQP
import APNsCore
import Foundation
import MockAPNs
import TestSupport
import Testing
import Worker
import WorkerConfiguration

/// The fault-injection suite: each scenario runs RabbitMQ, a mock APNs and `apns-worker run` processes,
/// injects its fault, and checks the results (docs/reliability.md explains every scenario).
///
/// Without `APNS_FAULTS=full` only the quick subset runs (it is part of `make test`); with it, every
/// scenario runs and its row in docs/reliability.md is replaced (`scripts/faults.sh`, `make faults`).
@Suite("Fault injection (real RabbitMQ, worker processes, mock APNs)", .serialized, .io)
struct FaultSuiteTests {
    @Test("quick subset", .enabled(if: !FaultCatalog.isFull && !FaultCatalog.isCluster), .timeLimit(.minutes(3)), arguments: FaultCatalog.selected(FaultCatalog.quickNames))
    func quick(_ name: String) async throws {
        try await check(FaultCatalog.scenario(named: name), record: false)
    }

    @Test("every scenario (APNS_FAULTS=full)", .enabled(if: FaultCatalog.isFull), .timeLimit(.minutes(5)), arguments: FaultCatalog.selected(FaultCatalog.allNames))
    func full(_ name: String) async throws {
        try await check(FaultCatalog.scenario(named: name), record: true)
    }

    @Test("the cluster tier (APNS_FAULTS=cluster)", .enabled(if: FaultCatalog.isCluster && !FaultCatalog.isClusterQuick), .timeLimit(.minutes(6)), arguments: FaultCatalog.selected(FaultCatalog.clusterNames))
    func cluster(_ name: String) async throws {
        try await check(FaultCatalog.scenario(named: name), record: true)
    }

    @Test("the cluster tier's quick subset (APNS_FAULTS=cluster-quick, in make test)", .enabled(if: FaultCatalog.isClusterQuick), .timeLimit(.minutes(4)), arguments: FaultCatalog.clusterQuickNames)
    func clusterQuick(_ name: String) async throws {
        try await check(FaultCatalog.scenario(named: name), record: false)
    }

    private func check(_ scenario: FaultScenario, record: Bool) async throws {
        let outcome = try await FaultRunner.run(scenario)
        let violations = FaultAudit.violations(outcome) + (outcome.error == nil ? scenario.checks(outcome) : [])
        let known = violations.filter { scenario.knownIssue?.covers($0) == true }
        let unknown = violations.filter { scenario.knownIssue?.covers($0) != true }
        let row = FaultReport.row(outcome, violations: unknown, knownIssues: known)
        FaultReport.print(row)
        if record { try FaultReport.record(row, scenario: scenario.name, order: FaultCatalog.allNames + FaultCatalog.clusterNames) }
        if unknown.isEmpty, ProcessInfo.processInfo.environment["APNS_FAULTS_KEEP_LOGS"] == nil {
            for path in outcome.logPaths { try? FileManager.default.removeItem(atPath: path) }
        } else {
            print("\(scenario.name): the worker's log is kept at \(outcome.logPaths.joined(separator: ", "))")
        }
        #expect(unknown.isEmpty, "\(scenario.name):\n\(unknown.joined(separator: "\n"))")
        if let issue = scenario.knownIssue, !known.isEmpty {
            withKnownIssue(Comment(rawValue: issue.comment)) {
                Issue.record("\(scenario.name):\n\(known.joined(separator: "\n"))")
            }
        }
    }
}
