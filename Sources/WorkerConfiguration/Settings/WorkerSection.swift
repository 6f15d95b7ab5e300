#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `worker`: how this process consumes and retries jobs.
public struct WorkerSection: Sendable, Hashable {
    /// Shown in every result's `worker` field; the host name by default.
    public var name: String = Self.hostName
    /// Unacknowledged deliveries the broker may push at once (`basic.qos`), 1...65535.
    public var prefetch: Int = 500
    /// Unacknowledged deliveries of the urgent lane (its own `basic.qos`, on top of ``prefetch``), so a
    /// bulk backlog holding every place of ``prefetch`` never keeps an urgent job at the broker.
    public var urgentPrefetch: Int = 100
    /// Jobs processed at once, 1...65535; `nil` means 1,000 per APNs connection of the credentials (see
    /// ``WorkerSettings/jobConcurrency``). Prefetched deliveries beyond it wait, not yet started.
    public var maxConcurrentJobs: Int? = nil
    /// Workers in the fleet, for rate limits (each worker sends its share of a credential's
    /// `rate_limit`); `nil` (the default) counts the consumers of the jobs queue every 15 seconds.
    public var fleetSize: Int? = nil
    /// Shards: each an event loop with its own broker connection, APNs connections and share of the
    /// windows above, running its jobs from delivery to ack without leaving that loop; `nil` (the
    /// default) means one per core. Never more than ``prefetch`` or ``maxConcurrentJobs`` (see
    /// ``WorkerSettings/shardCount``).
    public var shards: Int? = nil
    /// How long a graceful shutdown waits for in-flight jobs before giving up on them.
    public var shutdownTimeout: Duration = .seconds(20)
    /// Whether to declare the exchanges and queues of ``TopologySection`` at start.
    public var declareTopology: Bool = true
    /// Whether bulk multicast requests in flight are paced to what the worker keeps up with (urgent
    /// ones never are); false keeps them at every permit.
    public var multicastPacing: Bool = true
    /// APNs attempts per job, the first try included, 1...100.
    public var maxAttempts: Int = 5
    /// How long a credential that APNs refused (bad token, revoked certificate) is paused.
    public var credentialBackoff: Duration = .seconds(60)
    /// How often the configuration file and every credential's files are checked for a change, which
    /// then reloads the credentials as SIGHUP does; `nil` (the default) checks never.
    public var credentialWatchInterval: Duration? = nil

    /// The documented defaults.
    public init() {}

    /// This machine's host name, or `apns-worker` when the system will not say.
    public static let hostName: String = {
        var buffer = [CChar](repeating: 0, count: 256)
        guard gethostname(&buffer, buffer.count - 1) == 0 else { return "apns-worker" }
        let name = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        return name.isEmpty ? "apns-worker" : name
    }()
}
