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

    /// The queue of one retry tier: ``retryQueuePrefix`` plus the tier in its shortest unit (`5s`, `2m`).
    public func retryQueueName(forTier tier: Duration) -> String {
        retryQueuePrefix + DurationText.format(tier)
    }

    /// The jobs queues the workers consume: ``jobsQueue`` and, with ``partitions`` N > 1, `<jobsQueue>.1`
    /// … `<jobsQueue>.<N-1>` (the first partition keeps the old name, so going from 1 to N keeps its backlog).
    public var jobsQueueNames: [String] { [jobsQueue] + (1..<max(partitions, 1)).map { "\(jobsQueue).\($0)" } }

    /// With ``partitions`` > 1: the `x-random` exchange, bound to ``jobsExchange`` with ``jobsRoutingKey``,
    /// that hands each job to one partition at random. Publishers keep publishing to ``jobsExchange``.
    public var jobsSpreadExchange: String { "\(jobsExchange).spread" }

    /// The queues of all ``retryTiers``, in order.
    public var retryQueueNames: [String] { retryTiers.map(retryQueueName(forTier:)) }
}
