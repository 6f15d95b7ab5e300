import AMQP
import APNsCore
import Foundation
import MockAPNs
import TestSupport
import Worker
import WorkerConfiguration

/// Every scenario of the fault suite, by name, in the order of the report.
///
/// Scenarios are built on demand (some carry megabytes of jobs), so test arguments are their names.
/// `APNS_FAULTS_ONLY=name,name` restricts a run to those scenarios.
enum FaultCatalog {
    /// The RabbitMQ the scripts run (`APNS_RABBITMQ_VERSION`: 3.10 or 4.0), for what differs by release.
    static var brokerVersion: String { ProcessInfo.processInfo.environment["APNS_RABBITMQ_VERSION"] ?? "3.10" }

    /// Whether the whole suite runs (`APNS_FAULTS=full`) rather than the quick subset.
    static var isFull: Bool { ProcessInfo.processInfo.environment["APNS_FAULTS"] == "full" }

    static let builders: [(name: String, make: @Sendable () -> FaultScenario)] = [
        ("kill-9", killNine),
        ("sigterm", sigterm),
        ("broker-restart", brokerRestart),
        ("close-connection", closeConnection),
        ("goaway", goAway),
        ("tcp-reset", tcpReset),
        ("stream-reset", streamReset),
        ("stall-timeout", stallTimeout),
        ("503-storm", serviceUnavailableStorm),
        ("429-retry-after", tooManyRequests),
        ("expired-provider-token", expiredProviderToken),
        ("too-many-token-updates", tooManyTokenUpdates),
        ("poison-10pct", poison),
        ("hostile-input", hostileInput),
        ("1mib-messages", largeMessages),
        ("unknown-credential", unknownCredential),
        ("results-queue-missing", resultsQueueMissing),
        ("results-exchange-missing", resultsExchangeMissing),
    ]

    /// The cluster tier (`make faults-cluster`, `APNS_FAULTS=cluster`): three RabbitMQ nodes.
    static let clusterBuilders: [(name: String, make: @Sendable () -> FaultScenario)] = [
        ("cluster-leader-kill", clusterLeaderKill),
        ("cluster-in-flight-1", { clusterLeaderKillInFlight(round: 1) }),
        ("cluster-in-flight-2", { clusterLeaderKillInFlight(round: 2) }),
        ("cluster-in-flight-3", { clusterLeaderKillInFlight(round: 3) }),
        ("cluster-node-stop", clusterNodeStop),
        ("cluster-rolling-restart", clusterRollingRestart),
        ("cluster-partitions-rolling", clusterPartitionsRolling),
        ("cluster-retries-dead-letters", clusterRetriesAndDeadLetters),
        ("cluster-fleet", clusterFleet),
        ("cluster-stale-leader", clusterStaleLeader),
    ]

    /// Whether a cluster runs (`APNS_FAULTS=cluster`, or `cluster-quick` for `make test`'s subset).
    static var isCluster: Bool { ["cluster", "cluster-quick"].contains(ProcessInfo.processInfo.environment["APNS_FAULTS"]) }

    /// Whether only the cluster tier's quick subset runs (`make test`, after the rest of the suite).
    static var isClusterQuick: Bool { ProcessInfo.processInfo.environment["APNS_FAULTS"] == "cluster-quick" }

    /// The cluster scenarios `make test` runs: the leader's loss, the defect the tier was written for,
    /// once slowly and once with everything in flight (no push twice while the worker lives).
    static let clusterQuickNames = ["cluster-leader-kill", "cluster-in-flight-1"]

    static var clusterNames: [String] { clusterBuilders.map(\.name) }

    /// The scenarios `make test` runs too: quick, and gentle with the shared broker.
    static let quickNames = ["close-connection", "goaway", "poison-10pct", "hostile-input", "results-queue-missing", "results-exchange-missing"]

    static var allNames: [String] { builders.map(\.name) }

    /// The names a run should use: `names`, narrowed by `APNS_FAULTS_ONLY` when set.
    static func selected(_ names: [String]) -> [String] {
        guard let only = ProcessInfo.processInfo.environment["APNS_FAULTS_ONLY"], !only.isEmpty else { return names }
        let wanted = Set(only.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) })
        return names.filter(wanted.contains)
    }

    static func scenario(named name: String) -> FaultScenario {
        guard let builder = (builders + clusterBuilders).first(where: { $0.name == name }) else { fatalError("no fault scenario named \(name)") }
        return builder.make()
    }

    /// The delay before attempt `attempt + 1` at the shortest (jitter takes up to a fifth off a tier):
    /// the sum of the tiers of the attempts before it, each at 80 %.
    static func minimumRetryDelay(afterAttempts attempts: Int, tiers: [Duration]) -> Duration {
        (0..<max(0, attempts - 1)).reduce(Duration.zero) { sum, index in sum + tiers[min(index, tiers.count - 1)] * 0.8 }
    }
}
