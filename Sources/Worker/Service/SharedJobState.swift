import NIOConcurrencyHelpers
import WorkerConfiguration

/// What a worker's shards share: what must hold for the process whoever consumed a job. Each part
/// takes its own lock, which a job's fast path touches only to remember its outcome.
///
/// - A job requeued on one shard's connection is redelivered to any consumer, another shard's too:
///   the outcomes already answered (``AnsweredOutcomes``) and the jobs still at APNs (``JobsAtAPNs``)
///   must be the process's, or a redelivery would push again.
/// - A credential's rate limit is this worker's share of the fleet's rate, whichever shard sends.
/// - Multicast permits and pacing hold the requests of the whole worker to what it keeps up with.
/// - A reload (SIGHUP) swaps the credentials in force for every shard at once.
final class SharedJobState: Sendable {
    /// The credentials in force; a reload swaps them while jobs run.
    let credentialsInForce: NIOLockedValueBox<CredentialRegistry>
    /// The credentials in force now.
    var credentials: CredentialRegistry { credentialsInForce.withLockedValue { $0 } }
    /// Outcomes of jobs APNs answered, for their redeliveries (see ``AnsweredOutcomes``).
    let answered = AnsweredOutcomes()
    /// Jobs at APNs now, which their redeliveries wait for (see ``JobsAtAPNs``).
    let atAPNs = JobsAtAPNs()
    /// Requests multicast jobs may have in flight, all of them together (see ``SendPermits``).
    let permits: SendPermits
    /// Urgent single-device jobs' latencies, by which pacing holds bulk multicast back (``BulkPacer``).
    let urgentLatencies = UrgentLatencies()
    /// The credentials' rate limits, scaled to this worker's share of the fleet.
    let rateLimits: RateLimits

    /// The state of a worker configured by `settings` (the whole worker's, not one shard's).
    init(settings: WorkerSettings, credentials: CredentialRegistry) {
        credentialsInForce = NIOLockedValueBox(credentials)
        permits = SendPermits(capacity: settings.multicastConcurrency)
        rateLimits = RateLimits(credentials: settings.credentials)
    }
}
