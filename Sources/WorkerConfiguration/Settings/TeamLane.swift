/// `topology.team_lanes[]`: a team's own bulk queue. Jobs published to the jobs exchange with the lane's
/// name as routing key wait in its queue, consumed by every worker in a window of its own, and its
/// retries come back to it; in the worker they wait as bulk jobs and share slots by credential.
public struct TeamLane: Sendable, Hashable {
    /// The lane's name, also its routing key on the jobs exchange and the prefix of its retry tiers'
    /// routing keys (`<name>.5s`).
    public var name: String
    /// Its quorum queue: `<jobs_queue>.<name>` unless configured.
    public var queue: String
    /// Unacknowledged deliveries of its queue per worker; `worker.prefetch` when nil.
    public var prefetch: Int?

    public init(name: String, queue: String, prefetch: Int? = nil) {
        self.name = name
        self.queue = queue
        self.prefetch = prefetch
    }
}
