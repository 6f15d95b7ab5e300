import CoreMetrics
import Foundation
import Metrics

/// The worker's own metrics, in Prometheus naming, through swift-metrics.
///
/// Fixed series are created once; labelled ones (tier, reason, status) on first use, then kept in
/// ``PublicationCounters``.
struct WorkerMetrics: Sendable {
    let received = Counter(label: "apns_jobs_received_total")
    let acked = Counter(label: "apns_jobs_acked_total")
    let requeued = Counter(label: "apns_jobs_requeued_total")
    /// Deliveries whose broker connection closed before they started, or before their outcome was
    /// published: the broker had requeued them already, so they were dropped (their outcome remembered).
    let superseded = Counter(label: "apns_jobs_superseded_total")
    /// Redeliveries answered from ``UnsettledOutcomes`` instead of a second push.
    let republished = Counter(label: "apns_jobs_outcome_republished_total")
    /// Publications the broker returned (no route) or refused (404): the alarm for a missing results exchange.
    let unroutable = Counter(label: "amqp_unroutable_total")
    /// Publications the broker nacked, each time (a republish nacked again counts again): transient,
    /// e.g. a quorum queue electing a leader; each is published again in place (``NackRetry``).
    let nacked = Counter(label: "amqp_publish_nacked_total")
    /// Jobs given back to the queue because the broker nacked their publications through every republish.
    let nackExhausted = Counter(label: "amqp_publish_nack_exhausted_total")
    let confirmDuration = Timer(label: "amqp_publish_confirm_duration_seconds")
    let inFlight = Gauge(label: "apns_jobs_in_flight")
    /// Requests sent for multicast jobs' tokens (a single-device job is one job, one request).
    let multicastRequests = Counter(label: "apns_multicast_requests_total")
    /// Multicast requests at APNs now, across every multicast job (bounded by ``SendPermits``).
    let multicastInFlight = Gauge(label: "apns_multicast_requests_in_flight")
    let prefetch = Gauge(label: "apns_prefetch")
    /// Broker connections opened so far (1 + reconnects), set when metrics are scraped.
    let connectionGeneration = Gauge(label: "amqp_connection_generation")
    let publications = PublicationCounters()

    /// Counts what one job's confirmed publications say: its result, a retry, a dead letter.
    func confirmed(_ publication: Publication) {
        publications.counter(for: publication.kind).increment()
    }

    /// When certificate credential `credential` expires (its certificate's `notAfter`), in seconds since
    /// 1970: `… - time() < 30 * 86400` is the alert.
    func credential(_ credential: String, certificateNotAfter: Date) {
        Gauge(label: "apns_credential_certificate_expiry_timestamp_seconds", dimensions: [("credential", credential)])
            .record(certificateNotAfter.timeIntervalSince1970)
    }

    /// A reload's outcome: `applied` or `refused`, counted, and whether the last one was applied.
    func credentialReload(applied: Bool) {
        Counter(label: "apns_credential_reloads_total", dimensions: [("result", applied ? "applied" : "refused")]).increment()
        Gauge(label: "apns_credential_reload_successful").record(applied ? 1 : 0)
        if applied { Gauge(label: "apns_credential_reload_timestamp_seconds").record(Date().timeIntervalSince1970) }
    }

    /// 1 while `credential` is paused after APNs refused it, else 0.
    func credential(_ credential: String, paused: Bool) {
        Gauge(label: "apns_credential_paused", dimensions: [("credential", credential)]).record(paused ? 1 : 0)
    }
}
