public import AMQP
public import WorkerConfiguration

/// Every exchange, queue and binding the worker relies on, derived from the configuration.
///
/// - jobs: direct exchange → quorum queue that dead-letters at-least-once (which needs
///   `x-overflow: reject-publish`) to the dead exchange, with a delivery limit against crash loops;
/// - retries: direct exchange → one queue per tier whose TTL dead-letters back to the jobs queue only;
/// - dead letters: fanout exchange → queue;
/// - results: topic exchange, with a queue bound to `result.#` so results are never unroutable.
public struct Topology: Sendable {
    public let settings: TopologySection

    public init(settings: TopologySection) {
        self.settings = settings
    }

    public var exchanges: [AMQPExchangeDeclaration] {
        [
            AMQPExchangeDeclaration(name: settings.jobsExchange, type: .direct),
            AMQPExchangeDeclaration(name: settings.retryExchange, type: .direct),
            AMQPExchangeDeclaration(name: settings.deadExchange, type: .fanout),
            AMQPExchangeDeclaration(name: settings.resultsExchange, type: .topic),
        ]
    }

    public var queues: [AMQPQueueDeclaration] {
        var queues = [
            AMQPQueueDeclaration(name: settings.jobsQueue, arguments: [
                "x-queue-type": .string("quorum"),
                "x-dead-letter-exchange": .string(settings.deadExchange),
                "x-dead-letter-strategy": .string("at-least-once"),
                "x-overflow": .string("reject-publish"),
                "x-delivery-limit": .int(Int64(settings.deliveryLimit)),
            ]),
            AMQPQueueDeclaration(name: settings.deadQueue, arguments: ["x-queue-type": .string("quorum")]),
        ]
        for tier in settings.retryTiers {
            queues.append(AMQPQueueDeclaration(name: settings.retryQueueName(forTier: tier), arguments: [
                "x-message-ttl": .int(Int64(tier.milliseconds)),
                "x-dead-letter-exchange": .string(""),
                "x-dead-letter-routing-key": .string(settings.jobsQueue),
            ]))
        }
        if let results = settings.resultsQueue {
            queues.append(AMQPQueueDeclaration(name: results, arguments: ["x-queue-type": .string("quorum")]))
        }
        return queues
    }

    public var bindings: [AMQPBindingDeclaration] {
        var bindings = [
            AMQPBindingDeclaration(queue: settings.jobsQueue, exchange: settings.jobsExchange, routingKey: settings.jobsRoutingKey),
            AMQPBindingDeclaration(queue: settings.deadQueue, exchange: settings.deadExchange, routingKey: ""),
        ]
        for tier in settings.retryTiers {
            bindings.append(AMQPBindingDeclaration(queue: settings.retryQueueName(forTier: tier), exchange: settings.retryExchange, routingKey: Self.routingKey(forTier: tier)))
        }
        if let results = settings.resultsQueue {
            bindings.append(AMQPBindingDeclaration(queue: results, exchange: settings.resultsExchange, routingKey: "result.#"))
        }
        return bindings
    }

    /// The routing key of a retry tier on the retry exchange: the tier as the configuration writes it
    /// ("5s", "2m"), which is also its queue's suffix.
    public static func routingKey(forTier tier: Duration) -> String {
        DurationText.format(tier)
    }
}

extension Duration {
    /// Whole milliseconds.
    var milliseconds: Int {
        let (seconds, attoseconds) = components
        return Int(seconds) * 1000 + Int(attoseconds / 1_000_000_000_000_000)
    }
}
