import APNsClient
import CoreMetrics
import NIOConcurrencyHelpers

/// The labelled counters of confirmed publications, by kind, made once each.
///
/// Every job counts its result here. Asking swift-metrics for `Counter(label:dimensions:)` each time
/// returns the same series, but only after the backend's lock, label checks and lookups (about 1 % of
/// a job's CPU); this dictionary is one short lock. It holds no more entries than the backend already
/// holds series: one per status, reason and credential, tier, or dead-letter reason.
final class PublicationCounters: Sendable {
    private let counters = NIOLockedValueBox<[Publication.Kind: Counter]>([:])

    /// The counter of `kind`: `apns_results_total`, `apns_jobs_retried_total` or `apns_jobs_dead_lettered_total`.
    func counter(for kind: Publication.Kind) -> Counter {
        if let counter = counters.withLockedValue({ $0[kind] }) { return counter }
        let counter = Self.make(kind)
        return counters.withLockedValue { counters in
            if let existing = counters[kind] { return existing }
            counters[kind] = counter
            return counter
        }
    }

    private static func make(_ kind: Publication.Kind) -> Counter {
        switch kind {
        case .result(let status, let reason, let credential):
            Counter(label: WorkerMetrics.resultsMetric.name, dimensions: [("status", status), ("reason", reason ?? ""), ("credential", credential ?? "")])
        case .retry(let tier):
            Counter(label: WorkerMetrics.retriedMetric.name, dimensions: [("tier", tier)])
        case .deadLetter(let reason):
            Counter(label: WorkerMetrics.deadLetteredMetric.name, dimensions: [("reason", reason)])
        }
    }
}
