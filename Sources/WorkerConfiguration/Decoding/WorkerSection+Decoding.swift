extension WorkerSection {
    static func decode(_ node: ConfigNode?, path: String, log: ProblemLog) -> WorkerSection {
        var reader = MappingReader(node, path: path, log: log)
        var section = WorkerSection()
        section.name = reader.value("name", default: section.name, Parse.string)
        section.prefetch = reader.value("prefetch", default: section.prefetch, Parse.int(1...65535))
        section.urgentPrefetch = reader.value("urgent_prefetch", default: section.urgentPrefetch, Parse.int(1...65535))
        section.maxConcurrentJobs = reader.optional("max_concurrent_jobs", Parse.int(1...65535))
        section.fleetSize = reader.optional("fleet_size", Parse.int(1...10_000))
        section.shards = reader.optional("shards", Parse.int(1...256))
        section.shutdownTimeout = reader.value("shutdown_timeout", default: section.shutdownTimeout, Parse.duration(.zero...(.seconds(3600))))
        section.declareTopology = reader.value("declare_topology", default: section.declareTopology, Parse.bool)
        section.multicastPacing = reader.value("multicast_pacing", default: section.multicastPacing, Parse.bool)
        section.maxAttempts = reader.value("max_attempts", default: section.maxAttempts, Parse.int(1...100))
        section.credentialBackoff = reader.value("credential_backoff", default: section.credentialBackoff, Parse.duration(.seconds(1)...(.seconds(86_400))))
        section.credentialWatchInterval = reader.optional("credential_watch_interval", Parse.duration(.seconds(1)...(.seconds(3600))))
        reader.reportUnknownKeys()
        return section
    }
}
