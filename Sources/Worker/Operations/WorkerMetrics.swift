import CoreMetrics
import Metrics

/// The worker's own metrics, in Prometheus naming, through swift-metrics.
///
/// Fixed series are created once; labelled ones (tier, reason, status) per use: swift-metrics' factory
/// hands back the same series for the same labels.
struct WorkerMetrics: Sendable {
    let received = Counter(label: "apns_jobs_received_total")
    let acked = Counter(label: "apns_jobs_acked_total")
    let requeued = Counter(label: "apns_jobs_requeued_total")
    /// Publications the broker returned (no route) or nacked: the alarm for a missing results exchange.
    let unroutable = Counter(label: "amqp_unroutable_total")
    let confirmDuration = Timer(label: "amqp_publish_confirm_duration_seconds")
    let inFlight = Gauge(label: "apns_jobs_in_flight")
    let prefetch = Gauge(label: "apns_prefetch")

    /// Counts what one job's confirmed publications say: its result, a retry, a dead letter.
    func confirmed(_ publication: Publication) {
        switch publication.kind {
        case .result(let status, let reason):
            Counter(label: "apns_results_total", dimensions: [("status", status), ("reason", reason ?? "")]).increment()
        case .retry(let tier):
            Counter(label: "apns_jobs_retried_total", dimensions: [("tier", tier)]).increment()
        case .deadLetter(let reason):
            Counter(label: "apns_jobs_dead_lettered_total", dimensions: [("reason", reason)]).increment()
        }
    }

    /// 1 while `credential` is paused after APNs refused it, else 0.
    func credential(_ credential: String, paused: Bool) {
        Gauge(label: "apns_credential_paused", dimensions: [("credential", credential)]).record(paused ? 1 : 0)
    }
}
