extension WorkerSettings {
    /// Reads every section of `root`, logging every problem; the result is only meaningful if none were.
    static func decode(_ root: ConfigNode, log: ProblemLog) -> WorkerSettings {
        var reader = MappingReader(root, path: "", log: log)
        var settings = WorkerSettings()
        settings.worker = .decode(reader.node("worker"), path: "worker", log: log)
        settings.amqp = .decode(reader.node("amqp"), path: "amqp", log: log)
        settings.topology = .decode(reader.node("topology"), path: "topology", log: log)
        settings.apns = .decode(reader.node("apns"), path: "apns", log: log)
        let credentials = decodeCredentials(reader.node("credentials"), log: log)
        settings.credentials = credentials ?? []
        settings.log = .decode(reader.node("log"), path: "log", log: log)
        settings.metrics = .decode(reader.node("metrics"), path: "metrics", log: log)
        reader.reportUnknownKeys()
        // A `credentials` that is not a list is already reported; "at least one" would only repeat it.
        if credentials != nil { log.append(CredentialCrossCheck.problems(settings.credentials)) }
        return settings
    }

    /// The credentials, or `nil` when `credentials` is not a list (which is logged).
    private static func decodeCredentials(_ node: ConfigNode?, log: ProblemLog) -> [CredentialSettings]? {
        switch node?.value {
        case .none, .null:
            return []
        case .list(let items):
            return items.enumerated().map { index, item in
                CredentialSettings.decode(item, path: KeyPath.index("credentials", index), log: log)
            }
        case .scalar, .map:
            log.report("credentials", "must be a list of credentials (entries starting with -)" + (node?.originNote ?? ""))
            return nil
        }
    }
}
