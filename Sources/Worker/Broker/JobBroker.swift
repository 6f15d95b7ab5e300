public import AMQP

/// What the worker needs from the broker for one job: confirmed publishes, acks and rejects.
///
/// ``AMQPClient`` is the real one; tests of the processing logic may use a recording fake.
public protocol JobBroker: Sendable {
    func publish(exchange: String, routingKey: String, message: AMQPMessage, mandatory: Bool, generation: UInt64?) async throws -> AMQPPublishOutcome
    /// Publishes a job's messages on the connection that delivered it and acks it once all are
    /// confirmed; `settled` gets the outcome (on whatever thread settles it).
    func publish(_ messages: [AMQPOutgoingMessage], thenAck delivery: AMQPDelivery, settled: @escaping @Sendable (AMQPBatchOutcome) -> Void)
    func ack(_ delivery: AMQPDelivery) async
    func reject(_ delivery: AMQPDelivery, requeue: Bool) async
    /// A new connection in place of the one of `generation`, if that is still the current one.
    func reopen(ifGeneration generation: UInt64, because reason: String) async
    /// The connection generation now; a delivery from an older one has been requeued by the broker.
    var generation: UInt64 { get }
    /// The broker's release (nil when unknown), for the workarounds only some releases need.
    var serverVersion: RabbitMQVersion? { get }
}

extension AMQPClient: JobBroker {}
