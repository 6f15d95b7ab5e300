import APNsCore
internal import Foundation

extension WorkerSettings {
    /// These settings as a configuration file that ``WorkerSettingsLoader`` reads back to the same
    /// settings (given no environment overrides): every key, defaults included, so a reader sees the
    /// whole configuration in force. Tests and benchmarks start worker processes with it.
    ///
    /// It holds what the settings hold: broker URLs with their passwords and a proxy's password (key
    /// and password files only by path). Write it as a private file.
    public var yaml: String {
        var writer = YAMLWriter()
        writer.section("worker", worker.entries)
        writer.section("amqp", amqp.entries)
        writer.section("topology", topology.entries)
        writer.section("apns", apns.entries)
        writer.line("credentials:" + (credentials.isEmpty ? " []" : ""))
        for credential in credentials {
            writer.listItem(credential.entries)
        }
        writer.section("log", [("level", log.level.rawValue), ("format", log.format.rawValue)])
        writer.section("metrics", [("host", YAMLWriter.quoted(metrics.host)), ("port", YAMLWriter.optional(metrics.port))])
        return writer.text
    }
}

extension WorkerSection {
    fileprivate var entries: [(String, String)] {
        [
            ("name", YAMLWriter.quoted(name)),
            ("prefetch", "\(prefetch)"),
            ("urgent_prefetch", "\(urgentPrefetch)"),
            ("max_concurrent_jobs", YAMLWriter.optional(maxConcurrentJobs)),
            ("fleet_size", YAMLWriter.optional(fleetSize)),
            ("shards", YAMLWriter.optional(shards)),
            ("shutdown_timeout", DurationText.format(shutdownTimeout)),
            ("declare_topology", "\(declareTopology)"),
            ("multicast_pacing", "\(multicastPacing)"),
            ("max_attempts", "\(maxAttempts)"),
            ("credential_backoff", DurationText.format(credentialBackoff)),
            ("credential_watch_interval", credentialWatchInterval.map(DurationText.format) ?? "null"),
        ]
    }
}

extension AMQPSection {
    fileprivate var entries: [(String, String)] {
        [
            ("urls", YAMLWriter.list(urls.map(YAMLWriter.quoted))),
            ("password_file", YAMLWriter.optionalQuoted(passwordFile)),
            ("heartbeat", DurationText.format(heartbeat)),
            ("connect_timeout", DurationText.format(connectTimeout)),
            ("startup_timeout", DurationText.format(startupTimeout)),
            ("connection_name", YAMLWriter.quoted(connectionName)),
            ("tls", YAMLWriter.flow([
                ("ca_file", YAMLWriter.optionalQuoted(tls.caFile)),
                ("certificate_file", YAMLWriter.optionalQuoted(tls.certificateFile)),
                ("key_file", YAMLWriter.optionalQuoted(tls.keyFile)),
                ("verify_peer", "\(tls.verifyPeer)"),
                ("verify_hostname", "\(tls.verifyHostname)"),
            ])),
        ]
    }
}

extension TopologySection {
    fileprivate var entries: [(String, String)] {
        [
            ("jobs_exchange", YAMLWriter.quoted(jobsExchange)),
            ("jobs_routing_key", YAMLWriter.quoted(jobsRoutingKey)),
            ("jobs_queue", YAMLWriter.quoted(jobsQueue)),
            ("partitions", "\(partitions)"),
            ("urgent_queue", YAMLWriter.optionalQuoted(urgentQueue)),
            ("urgent_routing_key", YAMLWriter.quoted(urgentRoutingKey)),
            ("team_lanes", YAMLWriter.list(teamLanes.map { lane in
                YAMLWriter.flow([("name", YAMLWriter.quoted(lane.name)), ("queue", YAMLWriter.quoted(lane.queue)), ("prefetch", YAMLWriter.optional(lane.prefetch))])
            })),
            ("delivery_limit", "\(deliveryLimit)"),
            ("retry_exchange", YAMLWriter.quoted(retryExchange)),
            ("retry_tiers", YAMLWriter.list(retryTiers.map(DurationText.format))),
            ("retry_queue_prefix", YAMLWriter.quoted(retryQueuePrefix)),
            ("dead_exchange", YAMLWriter.quoted(deadExchange)),
            ("dead_queue", YAMLWriter.quoted(deadQueue)),
            ("results_exchange", YAMLWriter.quoted(resultsExchange)),
            ("results_queue", YAMLWriter.optionalQuoted(resultsQueue)),
        ]
    }
}

extension APNsSection {
    fileprivate var entries: [(String, String)] {
        [
            ("endpoint", YAMLWriter.optionalQuoted(endpoint?.description)),
            ("channel_endpoint", YAMLWriter.optionalQuoted(channelEndpoint?.description)),
            ("broadcast_endpoint", YAMLWriter.optionalQuoted(broadcastEndpoint?.description)),
            ("ca_file", YAMLWriter.optionalQuoted(caFile)),
            ("trust_system_store", "\(trustSystemStore)"),
            ("request_timeout", DurationText.format(requestTimeout)),
            ("connect_timeout", DurationText.format(connectTimeout)),
            ("ping_interval", DurationText.format(pingInterval)),
            ("ping_timeout", DurationText.format(pingTimeout)),
            ("connections", "\(connections)"),
            ("max_waiting_requests", "\(maxWaitingRequests)"),
            ("proxy", YAMLWriter.optionalQuoted(proxy?.url)),
            ("no_proxy", YAMLWriter.list(noProxy.map(YAMLWriter.quoted))),
            ("proxy_from_environment", "\(proxyFromEnvironment)"),
        ]
    }
}

extension CredentialSettings {
    fileprivate var entries: [(String, String)] {
        var entries = [("name", YAMLWriter.quoted(name)), ("type", kind.typeName)]
        switch kind {
        case .token(let teamID, let keyID, let keyFile, let allowInsecure, let refreshAge):
            entries += [
                ("team_id", YAMLWriter.quoted(teamID)), ("key_id", YAMLWriter.quoted(keyID)), ("key_file", YAMLWriter.quoted(keyFile)),
                ("allow_insecure_key_permissions", "\(allowInsecure)"), ("refresh_age", DurationText.format(.milliseconds(Int64(refreshAge * 1000)))),
            ]
        case .pkcs12(let file, let passwordFile):
            entries += [("p12_file", YAMLWriter.quoted(file)), ("p12_password_file", YAMLWriter.optionalQuoted(passwordFile))]
        case .pem(let certificateFile, let keyFile):
            entries += [("certificate_file", YAMLWriter.quoted(certificateFile)), ("key_file", YAMLWriter.quoted(keyFile))]
        }
        entries += [
            ("environment", environment.rawValue),
            ("connections", YAMLWriter.optional(connections)),
            ("topics", YAMLWriter.list(topics.map(YAMLWriter.quoted))),
            ("proxy", YAMLWriter.optionalQuoted(proxy?.url)),
            ("weight", "\(weight)"),
            ("rate_limit", YAMLWriter.optional(rateLimit)),
            ("topic_rate_limits", YAMLWriter.flow(topicRateLimits.sorted { $0.key < $1.key }.map { (YAMLWriter.quoted($0.key), "\($0.value)") })),
        ]
        return entries
    }
}

extension HTTPProxy {
    /// `http://[user[:password]@]host:port`, the form ``HTTPProxy/init(url:bypass:)`` reads.
    fileprivate var url: String {
        var components = URLComponents()
        components.scheme = "http"
        components.host = host
        components.port = port
        components.user = username
        components.password = password
        return components.string ?? "http://\(host):\(port)"
    }
}
