extension WorkerSettings {
    /// Streams APNs allows per connection (its `SETTINGS_MAX_CONCURRENT_STREAMS`, 1,000 in practice; the
    /// mock advertises the same). Only used to size the default of ``jobConcurrency``.
    public static let typicalStreamsPerConnection = 1000

    /// How many jobs the worker processes at once: `worker.max_concurrent_jobs`, or by default what can
    /// be in flight at APNs — ``typicalStreamsPerConnection`` per connection of every credential — and
    /// never more than the prefetch of the lanes together, since no more deliveries than that are ever here.
    ///
    /// A job started beyond what APNs can take only waits for a stream, holding a task and its async
    /// frames (a few KiB) for the whole wait; a delivery not yet started is just its message.
    public var jobConcurrency: Int {
        let streams = credentials.reduce(0) { $0 + ($1.connections ?? apns.connections) * Self.typicalStreamsPerConnection }
        let limit = worker.maxConcurrentJobs ?? max(streams, 1)
        return max(1, min(limit, deliveryWindow))
    }

    /// Deliveries that can be here at once: `worker.prefetch`, plus `worker.urgent_prefetch` with lanes,
    /// plus each team lane's prefetch.
    public var deliveryWindow: Int {
        worker.prefetch + (topology.urgentQueue == nil ? 0 : worker.urgentPrefetch) + topology.teamLanes.reduce(0) { $0 + prefetch(of: $1) }
    }

    /// Unacknowledged deliveries of `team`'s queue per worker: its own `prefetch`, else `worker.prefetch`.
    public func prefetch(of team: TeamLane) -> Int {
        team.prefetch ?? worker.prefetch
    }

    /// Job slots bulk jobs never take, so an urgent job starts at once even when bulk ones fill the
    /// rest: a quarter of ``jobConcurrency``, at most `worker.urgent_prefetch` (0 without lanes, or
    /// when fewer than four jobs run at once).
    public var urgentReservedJobs: Int {
        topology.urgentQueue == nil ? 0 : min(worker.urgentPrefetch, jobConcurrency / 4)
    }

    /// How many requests multicast jobs may have in flight, all together: `worker.max_concurrent_jobs`,
    /// or by default what APNs can take (``typicalStreamsPerConnection`` per connection of every
    /// credential). Not capped by the prefetch, which counts broker messages, not the tokens in them.
    public var multicastConcurrency: Int {
        let streams = credentials.reduce(0) { $0 + ($1.connections ?? apns.connections) * Self.typicalStreamsPerConnection }
        return max(1, worker.maxConcurrentJobs ?? max(streams, 1))
    }
}
