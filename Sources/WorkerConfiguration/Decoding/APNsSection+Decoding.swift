extension APNsSection {
    static func decode(_ node: ConfigNode?, path: String, log: ProblemLog) -> APNsSection {
        var reader = MappingReader(node, path: path, log: log)
        var section = APNsSection()
        let positive = Parse.duration(.milliseconds(1)...(.seconds(3600)))
        section.endpoint = reader.optional("endpoint", Parse.endpoint)
        section.channelEndpoint = reader.optional("channel_endpoint", Parse.endpoint)
        section.broadcastEndpoint = reader.optional("broadcast_endpoint", Parse.endpoint)
        section.caFile = reader.optional("ca_file", Parse.string)
        section.trustSystemStore = reader.value("trust_system_store", default: section.trustSystemStore, Parse.bool)
        section.requestTimeout = reader.value("request_timeout", default: section.requestTimeout, positive)
        section.connectTimeout = reader.value("connect_timeout", default: section.connectTimeout, positive)
        section.pingInterval = reader.value("ping_interval", default: section.pingInterval, positive)
        section.pingTimeout = reader.value("ping_timeout", default: section.pingTimeout, positive)
        section.connections = reader.value("connections", default: section.connections, Parse.int(1...100))
        section.maxWaitingRequests = reader.value("max_waiting_requests", default: section.maxWaitingRequests, Parse.int(1...10_000_000))
        section.noProxy = reader.list("no_proxy", default: [], singleValueAllowed: true, Parse.string)
        section.proxy = reader.optional("proxy") { [noProxy = section.noProxy] node in try Parse.proxy(node, bypass: noProxy) }
        section.proxyFromEnvironment = reader.value("proxy_from_environment", default: section.proxyFromEnvironment, Parse.bool)
        if !section.trustSystemStore, section.caFile == nil {
            log.report(reader.childPath("trust_system_store"), "is false and no ca_file is given, so no server could be trusted")
        }
        reader.reportUnknownKeys()
        return section
    }
}
