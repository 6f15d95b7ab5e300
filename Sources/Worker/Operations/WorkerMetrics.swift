import APNsClient
import CoreMetrics
import Foundation
import Metrics
import WorkerConfiguration

/// The worker's own metrics, in Prometheus naming, through swift-metrics.
///
/// Fixed series are created once; labelled ones (tier, reason, status) on first use, then kept in
/// ``PublicationCounters``. Every name comes from a ``MetricDescription`` in ``catalog``.
struct WorkerMetrics: Sendable {
    static let receivedMetric = MetricDescription("apns_jobs_received_total", .counter, help: "Deliveries taken from the jobs queue.")
    static let ackedMetric = MetricDescription("apns_jobs_acked_total", .counter, help: "Jobs acked, each after all its publications were confirmed.")
    static let requeuedMetric = MetricDescription("apns_jobs_requeued_total", .counter, help: "Jobs handed back to the queue unacked (a publication not confirmed).")
    static let supersededMetric = MetricDescription("apns_jobs_superseded_total", .counter, help: "Deliveries whose broker connection closed first; the broker requeued them.")
    static let republishedMetric = MetricDescription("apns_jobs_outcome_republished_total", .counter, help: "Redeliveries answered with the outcome APNs gave before, without a second push.")
    static let unroutableMetric = MetricDescription("amqp_unroutable_total", .counter, help: "Publications the broker returned or refused (no route, missing exchange).")
    static let nackedMetric = MetricDescription("amqp_publish_nacked_total", .counter, help: "Publications the broker nacked, each time; each is published again in place.")
    static let nackExhaustedMetric = MetricDescription("amqp_publish_nack_exhausted_total", .counter, help: "Jobs given back because their publications were nacked through every republish.")
    static let confirmDurationMetric = MetricDescription("amqp_publish_confirm_duration_seconds", .histogram, help: "From a job's publications written to the broker's confirm of all of them.")
    static let inFlightMetric = MetricDescription("apns_jobs_in_flight", .gauge, help: "Jobs started and not yet settled.")
    static let multicastRequestsMetric = MetricDescription("apns_multicast_requests_total", .counter, help: "Requests sent for multicast jobs' tokens, one per token and try.")
    static let multicastInFlightMetric = MetricDescription("apns_multicast_requests_in_flight", .gauge, help: "Permits multicast senders hold: requests multicast jobs may have at APNs now (set when scraped).")
    static let multicastBulkLimitMetric = MetricDescription("apns_multicast_bulk_limit", .gauge, help: "Requests bulk multicast jobs may have at APNs now, as pacing set it (urgent ones may use every permit).")
    static let laneRunningMetric = MetricDescription("apns_lane_jobs_running", .gauge, labels: ["lane"], help: "Jobs started and not yet ended, by lane (set when scraped).")
    static let laneWaitingMetric = MetricDescription("apns_lane_jobs_waiting", .gauge, labels: ["lane"], help: "Deliveries received and not yet started, by lane (set when scraped).")
    static let credentialRunningMetric = MetricDescription("apns_credential_jobs_running", .gauge, labels: ["credential"], help: "Jobs started and not yet ended, by credential (set when scraped, with more than one credential).")
    static let credentialWaitingMetric = MetricDescription("apns_credential_jobs_waiting", .gauge, labels: ["credential"], help: "Deliveries waiting to start, by credential (set when scraped, with more than one credential).")
    static let rateLimitedMetric = MetricDescription("apns_rate_limited_total", .counter, labels: ["credential"], help: "Requests that waited for their credential's or topic's rate limit before being sent.")
    static let rateLimitMetric = MetricDescription("apns_rate_limit_per_worker", .gauge, labels: ["credential"], help: "This worker's share of the credential's fleet-wide rate limit, in notifications per second (set when scraped).")
    static let prefetchMetric = MetricDescription("apns_prefetch", .gauge, help: "The configured prefetch (deliveries the broker may have outstanding).")
    static let connectionGenerationMetric = MetricDescription("amqp_connection_generation", .gauge, help: "Broker connections opened so far: 1, plus one per reconnect or reopen of any shard's.")
    static let resultsMetric = MetricDescription("apns_results_total", .counter, labels: ["status", "reason", "credential"], help: "Results confirmed by the broker, by status, reason and credential.")
    static let retriedMetric = MetricDescription("apns_jobs_retried_total", .counter, labels: ["tier"], help: "Retry copies confirmed by the broker, by retry tier.")
    static let deadLetteredMetric = MetricDescription("apns_jobs_dead_lettered_total", .counter, labels: ["reason"], help: "Dead letters confirmed by the broker, by reason.")
    static let certificateExpiryMetric = MetricDescription("apns_credential_certificate_expiry_timestamp_seconds", .gauge, labels: ["credential"], help: "A certificate credential's notAfter, in seconds since 1970.")
    static let reloadsMetric = MetricDescription("apns_credential_reloads_total", .counter, labels: ["result"], help: "Configuration reloads (SIGHUP or the file watch), applied or refused.")
    static let reloadSuccessfulMetric = MetricDescription("apns_credential_reload_successful", .gauge, help: "1 when the configuration in use is the newest one on disk, 0 after a refused reload.")
    static let reloadTimestampMetric = MetricDescription("apns_credential_reload_timestamp_seconds", .gauge, help: "When the last reload was applied, in seconds since 1970.")
    static let pausedMetric = MetricDescription("apns_credential_paused", .gauge, labels: ["credential"], help: "1 while APNs refuses the credential and its jobs wait in a retry tier.")

    /// Every metric the worker exports besides the client's.
    static let catalog = [
        receivedMetric, ackedMetric, requeuedMetric, supersededMetric, republishedMetric, unroutableMetric, nackedMetric, nackExhaustedMetric,
        confirmDurationMetric, inFlightMetric, multicastRequestsMetric, multicastInFlightMetric, multicastBulkLimitMetric, prefetchMetric, connectionGenerationMetric,
        resultsMetric, retriedMetric, deadLetteredMetric, certificateExpiryMetric, reloadsMetric, reloadSuccessfulMetric, reloadTimestampMetric,
        pausedMetric, laneRunningMetric, laneWaitingMetric, credentialRunningMetric, credentialWaitingMetric,
        rateLimitedMetric, rateLimitMetric,
    ]

    let received = Counter(label: receivedMetric.name)
    let acked = Counter(label: ackedMetric.name)
    let requeued = Counter(label: requeuedMetric.name)
    /// Deliveries whose broker connection closed before they started, or before their outcome was
    /// published: the broker had requeued them already, so they were dropped (their outcome remembered).
    let superseded = Counter(label: supersededMetric.name)
    /// Redeliveries answered from ``AnsweredOutcomes`` instead of a second push.
    let republished = Counter(label: republishedMetric.name)
    /// Publications the broker returned (no route) or refused (404): the alarm for a missing results exchange.
    let unroutable = Counter(label: unroutableMetric.name)
    /// Publications the broker nacked, each time (a republish nacked again counts again): transient,
    /// e.g. a quorum queue electing a leader; each is published again in place (``NackRetry``).
    let nacked = Counter(label: nackedMetric.name)
    /// Jobs given back to the queue because the broker nacked their publications through every republish.
    let nackExhausted = Counter(label: nackExhaustedMetric.name)
    let confirmDuration = Timer(label: confirmDurationMetric.name)
    let inFlight = Gauge(label: inFlightMetric.name)
    /// Requests sent for multicast jobs' tokens (a single-device job is one job, one request).
    let multicastRequests = Counter(label: multicastRequestsMetric.name)
    /// Multicast requests at APNs now, across every multicast job (bounded by ``SendPermits``), set when scraped.
    let multicastInFlight = Gauge(label: multicastInFlightMetric.name)
    /// The permits bulk multicast senders may hold, as ``BulkPacer`` moves it.
    let multicastBulkLimit = Gauge(label: multicastBulkLimitMetric.name)
    let prefetch = Gauge(label: prefetchMetric.name)
    /// Broker connections opened so far (1 + reconnects), set when metrics are scraped.
    let connectionGeneration = Gauge(label: connectionGenerationMetric.name)
    let publications = PublicationCounters()

    /// Counts what one job's confirmed publications say: its result, a retry, a dead letter.
    func confirmed(_ publication: Publication) {
        publications.counter(for: publication.kind).increment()
    }

    /// When certificate credential `credential` expires (its certificate's `notAfter`), in seconds since
    /// 1970: `… - time() < 30 * 86400` is the alert.
    func credential(_ credential: String, certificateNotAfter: Date) {
        Gauge(label: Self.certificateExpiryMetric.name, dimensions: [("credential", credential)]).record(certificateNotAfter.timeIntervalSince1970)
    }

    /// A reload's outcome: `applied` or `refused`, counted, and whether the last one was applied.
    func credentialReload(applied: Bool) {
        Counter(label: Self.reloadsMetric.name, dimensions: [("result", applied ? "applied" : "refused")]).increment()
        Gauge(label: Self.reloadSuccessfulMetric.name).record(applied ? 1 : 0)
        if applied { Gauge(label: Self.reloadTimestampMetric.name).record(Date().timeIntervalSince1970) }
    }

    /// The configuration in use is the newest: set at start, so the series exists before any reload
    /// (an alert on `== 0` cannot tell "never reloaded" from "absent" otherwise).
    func configurationLoaded() {
        Gauge(label: Self.reloadSuccessfulMetric.name).record(1)
    }

    /// `lane`'s jobs running and deliveries waiting to start, as a scrape finds them.
    func lane(_ lane: Lane, running: Int, waiting: Int) {
        Gauge(label: Self.laneRunningMetric.name, dimensions: [("lane", lane.name)]).record(running)
        Gauge(label: Self.laneWaitingMetric.name, dimensions: [("lane", lane.name)]).record(waiting)
    }

    /// `credential`'s jobs running and deliveries waiting to start, as a scrape finds them.
    func credential(_ credential: String, running: Int, waiting: Int) {
        Gauge(label: Self.credentialRunningMetric.name, dimensions: [("credential", credential)]).record(running)
        Gauge(label: Self.credentialWaitingMetric.name, dimensions: [("credential", credential)]).record(waiting)
    }

    /// A request of `credential` waited for a rate limit.
    func rateLimited(_ credential: String) {
        Counter(label: Self.rateLimitedMetric.name, dimensions: [("credential", credential)]).increment()
    }

    /// This worker's share of `credential`'s rate limit, per second.
    func credential(_ credential: String, ratePerWorker: Double) {
        Gauge(label: Self.rateLimitMetric.name, dimensions: [("credential", credential)]).record(ratePerWorker)
    }

    /// 1 while `credential` is paused after APNs refused it, else 0.
    func credential(_ credential: String, paused: Bool) {
        Gauge(label: Self.pausedMetric.name, dimensions: [("credential", credential)]).record(paused ? 1 : 0)
    }
}
