import AMQP
import APNsCore
import Foundation
import MockAPNs
import TestSupport
import Testing
@testable import Worker
import WorkerConfiguration

/// One fault-injection scenario: the jobs, what goes wrong and when, and what must still hold.
///
/// The runner (``FaultRunner``) publishes ``jobs``, starts `apns-worker run` as a process, plays ``action``
/// while it works, waits for every result, and hands a ``FaultOutcome`` to the checker: the invariants
/// every scenario shares (``FaultAudit``) plus this scenario's own ``checks``.
struct FaultScenario: Sendable, CustomTestStringConvertible {
    let name: String
    /// What the scenario does and why it matters, for docs/reliability.md.
    let summary: String
    var jobs: [FaultJob]
    /// The mock's configuration at start (its faults, mostly).
    var mock: @Sendable (inout MockServerConfiguration) -> Void = { _ in }
    /// Worker settings on top of the harness's (short retry tiers, prefetch 200, 3 attempts).
    var settings: @Sendable (inout WorkerSettings) -> Void = { _ in }
    /// `APNS_WORKER__…` overrides for the worker process (keys the harness's YAML does not write).
    var environment: [String: String] = [:]
    /// After the topology is declared, before any job is published.
    var prepare: (@Sendable (FaultRun) async throws -> Void)? = nil
    /// Runs while the worker works; may wait for progress, kill or restart things, change faults.
    var action: (@Sendable (FaultRun) async throws -> Void)? = nil
    /// Result messages beyond one per job that are acceptable (redeliveries after a lost ack).
    var maximumDuplicateResults = 0
    /// apns-ids the mock may accept more than once (re-sends after an unknown outcome or a redelivery).
    var maximumDuplicateAPNsIDs = 0
    /// Whether jobs may reach the jobs queue's delivery limit (dead letters the broker makes).
    var allowsBrokerDeadLetters = false
    /// "No hot loop": APNs requests may not exceed this; nil means jobs × `max_attempts`.
    var maximumRequests: (@Sendable (FaultOutcome) -> Int)? = nil
    /// Runs against the three-node cluster (`make faults-cluster`): the worker is given all three
    /// nodes and connects to node 1 first, where the topology is declared (so every queue's leader is
    /// there too); the harness publishes and collects through node 3.
    var cluster = false
    /// Worker processes started together (a fleet). The first is the harness's (its metrics port and
    /// log); each other gets a metrics port and a log of its own and, on the cluster, the nodes in a
    /// rotated order, so the fleet's connections spread over the three nodes.
    var fleet = 1
    /// How long the run may take before the runner stops waiting for results.
    var timeout: Duration = .seconds(90)
    /// Checks of this scenario beyond the shared invariants; each string is a violation.
    var checks: @Sendable (FaultOutcome) -> [String] = { _ in [] }
    /// Figures for the table's notes column.
    var notes: @Sendable (FaultOutcome) -> String = { _ in "" }
    /// A bug in the worker this scenario shows, not fixed yet: its violations are reported as a known
    /// issue (swift-testing's `withKnownIssue`) instead of failing the suite.
    var knownIssue: KnownIssue? = nil

    var testDescription: String { name }

    /// The ids that must each get a terminal result.
    var expectedIDs: Set<String> { Set(jobs.filter { !$0.outcomes.isEmpty }.map(\.id)) }
    /// How many dead letters the jobs themselves call for.
    var expectedDeadLetters: Int { jobs.filter(\.deadLetters).count }
}
