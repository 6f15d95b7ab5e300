extension AMQPSection {
    static func decode(_ node: ConfigNode?, path: String, log: ProblemLog) -> AMQPSection {
        var reader = MappingReader(node, path: path, log: log)
        var section = AMQPSection()
        section.urls = reader.list("urls", default: section.urls, singleValueAllowed: true, Parse.brokerURL)
        if case .list(let items)? = reader.peek("urls")?.value, items.isEmpty {
            log.report(reader.childPath("urls"), "must name at least one broker")
        }
        section.passwordFile = reader.optional("password_file", Parse.string)
        // rabbitmq-c negotiates heartbeats in whole seconds, as an unsigned 16-bit number.
        section.heartbeat = reader.value("heartbeat", default: section.heartbeat, Parse.duration(.zero...(.seconds(65535)), wholeSeconds: true))
        section.connectTimeout = reader.value("connect_timeout", default: section.connectTimeout, Parse.duration(.milliseconds(1)...(.seconds(600))))
        section.startupTimeout = reader.value("startup_timeout", default: section.startupTimeout, Parse.duration(.zero...(.seconds(86_400))))
        section.tls = .decode(reader.node("tls"), path: reader.childPath("tls"), log: log)
        section.connectionName = reader.value("connection_name", default: section.connectionName, Parse.string)
        reader.reportUnknownKeys()
        return section
    }
}
