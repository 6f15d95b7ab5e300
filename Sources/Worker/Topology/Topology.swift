public import AMQP
public import WorkerConfiguration

/// Every exchange, queue and binding the worker relies on, derived from the configuration.
///
/// - jobs: direct exchange → quorum queue that dead-letters at-least-once (which needs
///   `x-overflow: reject-publish`) to the dead exchange, with a delivery limit against crash loops;
///   with `partitions` N > 1, the direct exchange → an `x-random` exchange → N such queues, whose
///   leaders RabbitMQ places on the least-loaded nodes;
/// - the urgent lane (unless `urgent_queue` is null) and each team lane: the jobs exchange → a quorum
///   queue of its own under the lane's routing key, with retry tiers of its own that hand jobs back to it;
/// - retries: direct exchange → one quorum queue per tier whose TTL dead-letters (at-least-once) back to
///   the jobs queue only: a classic queue would be gone while its node is down, and every retry with it;
/// - dead letters: fanout exchange → queue;
/// - results: topic exchange, with a queue bound to `result.#` so results are never unroutable.
public struct Topology: Sendable {
    public let settings: TopologySection

    public init(settings: TopologySection) {
        self.settings = settings
    }

    /// Whether jobs are spread over several queues.
    public var isPartitioned: Bool { settings.partitions > 1 }

    public var exchanges: [AMQPExchangeDeclaration] {
        var exchanges = [
            AMQPExchangeDeclaration(name: settings.jobsExchange, type: .direct),
            AMQPExchangeDeclaration(name: settings.retryExchange, type: .direct),
            AMQPExchangeDeclaration(name: settings.deadExchange, type: .fanout),
            AMQPExchangeDeclaration(name: settings.resultsExchange, type: .topic),
        ]
        if isPartitioned { exchanges.insert(AMQPExchangeDeclaration(name: settings.jobsSpreadExchange, type: .random), at: 1) }
        return exchanges
    }

    public var queues: [AMQPQueueDeclaration] {
        // New partitions' leaders go to the node leading the fewest queues, and so does the urgent
        // lane's (it should not share a node's core with the bulk backlog when there is another node).
        // The first partition keeps its arguments as they were (RabbitMQ refuses to redeclare a queue
        // with different ones).
        var queues = settings.jobsQueueNames.enumerated().map { index, name in
            AMQPQueueDeclaration(name: name, arguments: jobsQueueArguments(balanced: index > 0))
        }
        if let urgent = settings.urgentQueue {
            queues.append(AMQPQueueDeclaration(name: urgent, arguments: jobsQueueArguments(balanced: true)))
        }
        queues += settings.teamLanes.map { AMQPQueueDeclaration(name: $0.queue, arguments: jobsQueueArguments(balanced: true)) }
        queues += keptQueues
        queues += retryQueues
        return queues
    }

    /// A jobs queue's: quorum, dead-lettering at-least-once (which needs `x-overflow: reject-publish`)
    /// to the dead exchange, with the delivery limit against crash loops.
    private func jobsQueueArguments(balanced: Bool) -> [String: AMQPFieldValue] {
        var arguments: [String: AMQPFieldValue] = [
            "x-queue-type": .string("quorum"),
            "x-dead-letter-exchange": .string(settings.deadExchange),
            "x-dead-letter-strategy": .string("at-least-once"),
            "x-overflow": .string("reject-publish"),
            "x-delivery-limit": .int(Int64(settings.deliveryLimit)),
        ]
        if balanced { arguments["x-queue-leader-locator"] = .string("balanced") }
        return arguments
    }

    /// A delivery limit no message reaches: RabbitMQ 4.x drops a quorum-queue message after 20 deliveries
    /// when no limit is set (requeues and a closed channel's returns count), and 3.10 drops it at once
    /// when the limit is -1, 4.x's "none".
    public static let unlimitedDeliveries: Int64 = 1_000_000_000

    /// The queues whose messages wait for people: dead letters (`dead-letters list` looks at each one and
    /// hands it back) and results (`results` reads without taking). Without their own limit, a letter
    /// looked at 20 times would be gone on RabbitMQ 4.x.
    public var keptQueues: [AMQPQueueDeclaration] {
        let arguments: [String: AMQPFieldValue] = ["x-queue-type": .string("quorum"), "x-delivery-limit": .int(Self.unlimitedDeliveries)]
        return [settings.deadQueue, settings.resultsQueue].compactMap { $0 }.map { AMQPQueueDeclaration(name: $0, arguments: arguments) }
    }

    /// One quorum queue per retry tier and lane (RabbitMQ 3.10 and later expire messages in quorum
    /// queues), each dead-lettering back to its lane's queue.
    public var retryQueues: [AMQPQueueDeclaration] {
        settings.retryTiersByLane.map { lane, tier in
            AMQPQueueDeclaration(name: settings.retryQueueName(forTier: tier, lane: lane), arguments: [
                "x-queue-type": .string("quorum"),
                "x-message-ttl": .int(Int64(tier.milliseconds)),
                "x-dead-letter-exchange": .string(""),
                "x-dead-letter-routing-key": .string(settings.queue(of: lane)),
                "x-dead-letter-strategy": .string("at-least-once"),
                "x-overflow": .string("reject-publish"),
            ])
        }
    }

    public var bindings: [AMQPBindingDeclaration] {
        var bindings = [AMQPBindingDeclaration]()
        if isPartitioned {
            bindings.append(AMQPBindingDeclaration(destination: .exchange(settings.jobsSpreadExchange), exchange: settings.jobsExchange, routingKey: settings.jobsRoutingKey))
            bindings += settings.jobsQueueNames.map { AMQPBindingDeclaration(queue: $0, exchange: settings.jobsSpreadExchange, routingKey: "") }
        } else {
            bindings.append(directJobsBinding)
        }
        if let urgent = settings.urgentQueue {
            bindings.append(AMQPBindingDeclaration(queue: urgent, exchange: settings.jobsExchange, routingKey: settings.urgentRoutingKey))
        }
        for team in settings.teamLanes {
            bindings.append(AMQPBindingDeclaration(queue: team.queue, exchange: settings.jobsExchange, routingKey: team.name))
        }
        bindings.append(AMQPBindingDeclaration(queue: settings.deadQueue, exchange: settings.deadExchange, routingKey: ""))
        for (lane, tier) in settings.retryTiersByLane {
            let routingKey = settings.retryRoutingKey(forTier: tier, lane: lane)
            bindings.append(AMQPBindingDeclaration(queue: settings.retryQueueName(forTier: tier, lane: lane), exchange: settings.retryExchange, routingKey: routingKey))
        }
        if let results = settings.resultsQueue {
            bindings.append(AMQPBindingDeclaration(queue: results, exchange: settings.resultsExchange, routingKey: "result.#"))
        }
        return bindings
    }

    /// Bindings an earlier configuration made that this one must remove: going from one jobs queue to
    /// partitions, the direct binding would hand every job to the first partition a second time.
    public var obsoleteBindings: [AMQPBindingDeclaration] {
        isPartitioned ? [directJobsBinding] : []
    }

    private var directJobsBinding: AMQPBindingDeclaration {
        AMQPBindingDeclaration(queue: settings.jobsQueue, exchange: settings.jobsExchange, routingKey: settings.jobsRoutingKey)
    }

    /// Declares everything (idempotent) and removes ``obsoleteBindings``. An `x-random` exchange the
    /// broker does not know is reported as the plugin it needs.
    ///
    /// A queue an earlier version declared with other arguments cannot be redeclared (RabbitMQ answers
    /// 406): a retry tier declared as a classic queue, a dead-letter or results queue without its
    /// delivery limit. It is kept as it is, and the returned warnings say so and how to put it right.
    /// Everything else that fails throws.
    @discardableResult
    public func declare(on amqp: AMQPClient) async throws -> [String] {
        let oneByOne = Set((retryQueues + keptQueues).map(\.name))
        do {
            try await amqp.declare(exchanges: exchanges, queues: queues.filter { !oneByOne.contains($0.name) })
        } catch let error as AMQPError where isPartitioned && "\(error)".contains("x-random") {
            throw TopologyError(
                "topology.partitions \(settings.partitions) needs RabbitMQ's random exchange: run `rabbitmq-plugins enable rabbitmq_random_exchange` on every node (\(error))"
            )
        }
        var warnings: [String] = []
        for queue in retryQueues {
            try await declareKeepingEarlier(queue, on: amqp, into: &warnings) { error in
                "retry tier queue \(queue.name) exists as a classic queue (an earlier version declared it so): while its node is down, "
                    + "retries to it come back unroutable and wait in the jobs queue. To make it a quorum queue, let it empty, delete it "
                    + "and run `apns-worker declare` (\(error))"
            }
        }
        for queue in keptQueues {
            try await declareKeepingEarlier(queue, on: amqp, into: &warnings) { error in
                "queue \(queue.name) exists without a delivery limit (an earlier version declared it so): RabbitMQ 4.x drops a message "
                    + "of it after 20 deliveries, so a dead letter or result looked at 20 times is lost. Give it one with a policy: "
                    + "rabbitmqctl set_policy apns-keep '^\(queue.name.split(separator: ".", omittingEmptySubsequences: false).joined(separator: "\\."))$' "
                    + "'{\"delivery-limit\":\(Self.unlimitedDeliveries)}' --apply-to quorum_queues (\(error))"
            }
        }
        try await amqp.declare(bindings: bindings)
        for binding in obsoleteBindings { try await amqp.unbind(binding) }
        return warnings
    }

    /// Declares `queue`; one that exists with other arguments is kept, and `warning` says what to do.
    private func declareKeepingEarlier(
        _ queue: AMQPQueueDeclaration, on amqp: AMQPClient, into warnings: inout [String], _ warning: (AMQPError) -> String
    ) async throws {
        do {
            try await amqp.declare(queues: [queue])
        } catch let error as AMQPError where error.code == .brokerClosed(replyCode: 406) {
            try await amqp.checkQueue(queue.name)
            warnings.append(warning(error))
        }
    }

}

extension Duration {
    /// Whole milliseconds.
    var milliseconds: Int {
        let (seconds, attoseconds) = components
        return Int(seconds) * 1000 + Int(attoseconds / 1_000_000_000_000_000)
    }
}

/// The topology cannot be declared as configured; the message says what to change.
public struct TopologyError: Error, CustomStringConvertible {
    public let description: String

    init(_ description: String) {
        self.description = description
    }
}
