public import APNsCore

extension WorkerSettings {
    /// How many shards this worker runs on a machine of `cores`: `worker.shards`, by default one per
    /// core, and never more than `worker.prefetch` or `worker.max_concurrent_jobs`, so that every
    /// shard has a place of each.
    public func shardCount(cores: Int) -> Int {
        max(1, min(worker.shards ?? cores, worker.prefetch, worker.maxConcurrentJobs ?? .max))
    }

    /// What one shard runs with: its `share` of every window a worker has (`worker.prefetch`,
    /// `worker.urgent_prefetch`, each team lane's prefetch, `worker.max_concurrent_jobs`) and of the
    /// APNs connections of every credential, so that the shards together hold what was configured.
    /// The rest is the worker's as a whole.
    public func shard(_ share: ShardShare) -> WorkerSettings {
        guard share.count > 1 else { return self }
        var shard = self
        shard.worker.prefetch = share.of(worker.prefetch)
        shard.worker.urgentPrefetch = share.of(worker.urgentPrefetch)
        shard.worker.maxConcurrentJobs = worker.maxConcurrentJobs.map(share.of)
        shard.apns.connections = share.of(apns.connections)
        shard.credentials = credentials.map { credential in
            var credential = credential
            credential.connections = credential.connections.map(share.of)
            return credential
        }
        shard.topology.teamLanes = topology.teamLanes.map { lane in
            var lane = lane
            lane.prefetch = share.of(prefetch(of: lane))
            return lane
        }
        return shard
    }
}
