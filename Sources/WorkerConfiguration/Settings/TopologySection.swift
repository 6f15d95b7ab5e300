/// `topology`: the exchanges and queues the worker uses (and declares, unless told not to).
public struct TopologySection: Sendable, Hashable {
    /// Where producers publish jobs.
    public var jobsExchange: String = "apns.jobs"
    /// The routing key binding ``jobsQueue`` to ``jobsExchange``.
    public var jobsRoutingKey: String = "send"
    /// The quorum queue the worker consumes.
    public var jobsQueue: String = "apns.jobs"
    /// How many quorum queues the jobs are spread over (1: just ``jobsQueue``). A quorum queue is
    /// served by one leader node, so one queue caps a fleet at what one node's core can route; with N,
    /// ``jobsQueueNames`` are fed at random by ``jobsSpreadExchange`` (RabbitMQ's
    /// `rabbitmq_random_exchange` plugin) and every worker consumes all of them.
    public var partitions: Int = 1
    /// The urgent lane's quorum queue, bound to ``jobsExchange`` with ``urgentRoutingKey``: jobs published
    /// there are consumed in a window of their own (`worker.urgent_prefetch`) and started ahead of every
    /// job of the bulk lane (``jobsQueueNames``). `nil` turns the lanes off: one lane, as before them.
    public var urgentQueue: String? = "apns.jobs.urgent"
    /// The routing key that puts a job in the urgent lane.
    public var urgentRoutingKey: String = "urgent"
    /// Teams' own bulk lanes, each a queue of its own bound to ``jobsExchange`` under the lane's name.
    public var teamLanes: [TeamLane] = []
    /// `x-delivery-limit` of the jobs queue: a job redelivered this often (a crash loop) is dead-lettered.
    public var deliveryLimit: Int = 20
    /// Where jobs waiting for a retry are published.
    public var retryExchange: String = "apns.retry"
    /// The retry delays, strictly increasing; each tier has its own queue.
    public var retryTiers: [Duration] = [.seconds(5), .seconds(30), .seconds(120), .seconds(600)]
    /// Tier queues are named this prefix plus the tier, e.g. `apns.retry.5s`.
    public var retryQueuePrefix: String = "apns.retry."
    /// Where jobs that cannot be delivered end.
    public var deadExchange: String = "apns.dead"
    /// The queue bound to ``deadExchange``, where dead letters wait for an operator.
    public var deadQueue: String = "apns.dead"
    /// Where job outcomes are published, with routing keys under `result.`.
    public var resultsExchange: String = "apns.results"
    /// A queue bound to ``resultsExchange`` with `result.#` so results are never unroutable; `nil` skips it.
    public var resultsQueue: String? = "apns.results"

    /// The documented defaults.
    public init() {}

    /// The queue of one retry tier: ``retryQueuePrefix`` plus the tier in its shortest unit (`5s`, `2m`);
    /// the urgent lane's tiers have `urgent.` before the tier (`apns.retry.urgent.5s`), a team lane's its
    /// name (`apns.retry.payments.5s`), so a retried job comes back to its lane's queue.
    public func retryQueueName(forTier tier: Duration, lane: Lane = .bulk) -> String {
        retryQueuePrefix + retryRoutingKey(forTier: tier, lane: lane)
    }

    /// The routing key of a retry tier on ``retryExchange``: the tier as the configuration writes it
    /// (`5s`, `2m`), after `urgent.` for the urgent lane or `<name>.` for a team lane; also its queue's suffix.
    public func retryRoutingKey(forTier tier: Duration, lane: Lane) -> String {
        switch lane {
        case .bulk: DurationText.format(tier)
        case .urgent, .team: lane.name + "." + DurationText.format(tier)
        }
    }

    /// The lanes in use: bulk, urgent unless ``urgentQueue`` is `nil`, and the team lanes.
    public var lanes: [Lane] { (urgentQueue == nil ? [.bulk] : [.bulk, .urgent]) + teamLanes.map { .team($0.name) } }

    /// Every retry tier of every lane in use, bulk's first: one tier queue each.
    public var retryTiersByLane: [(lane: Lane, tier: Duration)] {
        lanes.flatMap { lane in retryTiers.map { (lane, $0) } }
    }

    /// The routing key that puts a job in `lane` on ``jobsExchange``.
    public func routingKey(of lane: Lane) -> String {
        switch lane {
        case .urgent: urgentRoutingKey
        case .bulk: jobsRoutingKey
        case .team(let name): name
        }
    }

    /// The queue a retry tier hands `lane`'s jobs back to (the bulk lane's first partition).
    public func queue(of lane: Lane) -> String {
        switch lane {
        case .urgent: urgentQueue ?? jobsQueue
        case .bulk: jobsQueue
        case .team(let name): teamLanes.first { $0.name == name }?.queue ?? jobsQueue
        }
    }

    /// The lane of a job delivered from queue `name`: urgent from ``urgentQueue``, a team's from its
    /// queue, else bulk.
    public func lane(ofQueue name: String) -> Lane {
        if name == urgentQueue { return .urgent }
        if let team = teamLanes.first(where: { $0.queue == name }) { return .team(team.name) }
        return .bulk
    }

    /// The routing key a dead letter's replay is published with, by the routing key the letter carries,
    /// for every lane but bulk (a letter with any other key is replayed to bulk): the lane's own key (the
    /// worker dead-letters a job under its lane's key) and its queue's name (the broker dead-letters a
    /// job that came back from a retry tier under the queue's name) both give the lane's key.
    public var replayRoutingKeys: [String: String] {
        var keys: [String: String] = [:]
        for lane in lanes where lane != .bulk {
            keys[routingKey(of: lane)] = routingKey(of: lane)
            keys[queue(of: lane)] = routingKey(of: lane)
        }
        return keys
    }

    /// The jobs queues the workers consume: ``jobsQueue`` and, with ``partitions`` N > 1, `<jobsQueue>.1`
    /// … `<jobsQueue>.<N-1>` (the first partition keeps the old name, so going from 1 to N keeps its backlog).
    public var jobsQueueNames: [String] { [jobsQueue] + (1..<max(partitions, 1)).map { "\(jobsQueue).\($0)" } }

    /// With ``partitions`` > 1: the `x-random` exchange, bound to ``jobsExchange`` with ``jobsRoutingKey``,
    /// that hands each job to one partition at random. Publishers keep publishing to ``jobsExchange``.
    public var jobsSpreadExchange: String { "\(jobsExchange).spread" }

    /// The queues of all ``retryTiers``, in order, of every lane (bulk's first).
    public var retryQueueNames: [String] {
        retryTiersByLane.map { retryQueueName(forTier: $0.tier, lane: $0.lane) }
    }
}
