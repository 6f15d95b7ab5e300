extension TopologySection {
    static func decode(_ node: ConfigNode?, path: String, log: ProblemLog) -> TopologySection {
        var reader = MappingReader(node, path: path, log: log)
        var section = TopologySection()
        section.jobsExchange = reader.value("jobs_exchange", default: section.jobsExchange, Parse.string)
        section.jobsRoutingKey = reader.value("jobs_routing_key", default: section.jobsRoutingKey, Parse.anyString)
        section.jobsQueue = reader.value("jobs_queue", default: section.jobsQueue, Parse.string)
        section.urgentQueue = reader.optional("urgent_queue", default: section.urgentQueue, Parse.string)
        section.urgentRoutingKey = reader.value("urgent_routing_key", default: section.urgentRoutingKey, Parse.anyString)
        section.teamLanes = TeamLane.decodeList(reader.node("team_lanes"), path: reader.childPath("team_lanes"), jobsQueue: section.jobsQueue, log: log)
        section.partitions = reader.value("partitions", default: section.partitions, Parse.int(1...64))
        section.deliveryLimit = reader.value("delivery_limit", default: section.deliveryLimit, Parse.int(1...1_000_000))
        section.retryExchange = reader.value("retry_exchange", default: section.retryExchange, Parse.string)
        section.retryTiers = decodeRetryTiers(&reader, default: section.retryTiers)
        section.retryQueuePrefix = reader.value("retry_queue_prefix", default: section.retryQueuePrefix, Parse.string)
        section.deadExchange = reader.value("dead_exchange", default: section.deadExchange, Parse.string)
        section.deadQueue = reader.value("dead_queue", default: section.deadQueue, Parse.string)
        section.resultsExchange = reader.value("results_exchange", default: section.resultsExchange, Parse.string)
        section.resultsQueue = reader.optional("results_queue", default: section.resultsQueue, Parse.string)
        reader.reportUnknownKeys()
        checkLanes(section, path: path, log: log)
        return section
    }

    /// Every lane must be a queue and a routing key of its own: with another lane's key, every job would
    /// be routed to both queues and pushed twice.
    private static func checkLanes(_ section: TopologySection, path: String, log: ProblemLog) {
        if let urgent = section.urgentQueue {
            if section.urgentRoutingKey == section.jobsRoutingKey {
                log.report(KeyPath.child(path, "urgent_routing_key"), "must differ from jobs_routing_key (\"\(section.jobsRoutingKey)\"): every job would go to both lanes and be pushed twice")
            }
            if section.jobsQueueNames.contains(urgent) || section.retryQueueNames.contains(urgent) {
                log.report(KeyPath.child(path, "urgent_queue"), "must be a queue of its own, not \"\(urgent)\", which the bulk lane or a retry tier uses")
            }
        }
        var keys = Set([section.jobsRoutingKey, "urgent"] + (section.urgentQueue == nil ? [] : [section.urgentRoutingKey]))
        var queues = Set(section.jobsQueueNames + section.retryQueueNames + [section.deadQueue, section.urgentQueue, section.resultsQueue].compactMap { $0 })
        // Lanes' queue names are routing keys too: a job handed back by a retry tier, and its dead
        // letter, carry its queue's name. So no lane's key may be another lane's queue, or the
        // reverse, or a replay could go to the wrong lane.
        let laneQueues = Set(section.jobsQueueNames + [section.urgentQueue].compactMap { $0 } + section.teamLanes.map(\.queue))
        let laneKeys = keys.union(section.teamLanes.map(\.name))
        for (index, team) in section.teamLanes.enumerated() {
            let teamPath = KeyPath.index(KeyPath.child(path, "team_lanes"), index)
            if !keys.insert(team.name).inserted || laneQueues.contains(team.name) {
                log.report(KeyPath.child(teamPath, "name"), "must differ from jobs_routing_key, urgent_routing_key, \"urgent\", every other team lane's name and every lane's queue, not \"\(team.name)\": its jobs or their replays would go to two lanes")
            }
            if !queues.insert(team.queue).inserted || laneKeys.contains(team.queue) {
                log.report(KeyPath.child(teamPath, "queue"), "must be a queue of its own and no lane's routing key, not \"\(team.queue)\", which another lane, a retry tier, the dead letters or the results use")
            }
        }
    }

    /// Tiers must increase strictly: each names its own queue, and a retry never waits less than the one before.
    private static func decodeRetryTiers(_ reader: inout MappingReader, default fallback: [Duration]) -> [Duration] {
        let path = reader.childPath("retry_tiers")
        let node = reader.node("retry_tiers")
        guard case .list(let items)? = node?.value else {
            return reader.list("retry_tiers", default: fallback, Parse.duration(.milliseconds(1)...(.seconds(86_400))))
        }
        guard !items.isEmpty else {
            reader.log.report(path, "must list at least one delay")
            return fallback
        }
        var tiers: [Duration] = []
        for (index, item) in items.enumerated() {
            let itemPath = KeyPath.index(path, index)
            guard let tier = MappingReader.parse(item, at: itemPath, with: Parse.duration(.milliseconds(1)...(.seconds(86_400))), log: reader.log) else {
                continue
            }
            if let previous = tiers.last, tier <= previous {
                reader.log.report(itemPath, "must be longer than the tier before it (\(DurationText.format(previous))): tiers increase strictly" + item.originNote)
            }
            tiers.append(tier)
        }
        return tiers
    }
}
