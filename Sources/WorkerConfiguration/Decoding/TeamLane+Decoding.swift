extension TeamLane {
    /// `topology.team_lanes`: a list of `{name, queue, prefetch}`; empty when absent. Each name must be
    /// a routing key of its own (letters, digits, `-`, `_`: no dots, which retry tiers' keys use).
    static func decodeList(_ node: ConfigNode?, path: String, jobsQueue: String, log: ProblemLog) -> [TeamLane] {
        switch node?.value {
        case .none, .null:
            return []
        case .list(let items):
            return items.enumerated().compactMap { index, item in decode(item, path: KeyPath.index(path, index), jobsQueue: jobsQueue, log: log) }
        case .scalar, .map:
            log.report(path, "must be a list of team lanes (entries starting with -, each with a name)" + (node?.originNote ?? ""))
            return []
        }
    }

    private static func decode(_ node: ConfigNode, path: String, jobsQueue: String, log: ProblemLog) -> TeamLane? {
        var reader = MappingReader(node, path: path, log: log)
        let name = reader.required("name", Parse.string)
        if let name, name.contains(where: { !($0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-" || $0 == "_")) }) {
            log.report(reader.childPath("name"), "must be letters, digits, - and _ only, not \"\(name)\": it is a routing key, and retry tiers' keys add a dot and the tier")
        }
        let queue = reader.value("queue", default: name.map { "\(jobsQueue).\($0)" } ?? "", Parse.string)
        let prefetch = reader.optional("prefetch", Parse.int(1...65_535))
        reader.reportUnknownKeys()
        return name.map { TeamLane(name: $0, queue: queue, prefetch: prefetch) }
    }
}
