public import Logging
public import NIOCore
internal import NIOPosix
internal import Synchronization

/// A RabbitMQ client on a SwiftNIO event loop; every method may be called from any task.
///
/// rabbitmq-c is the codec (it encodes and decodes every method and content header); the event loop
/// owns the socket, the connection's state and its timers, heartbeats included. A caller already on
/// that loop writes into the connection's outbound buffer directly; others hop onto it once. Results
/// come back through continuations. One channel consumes and publishes with confirms; another
/// declares, so a refused declaration does not disturb the consumer. After `connect()` the client
/// reconnects by itself (exponential backoff with jitter, rotating through the endpoints) and restarts
/// its consumer; each connection is a new ``generation``.
public final class AMQPClient: Sendable {
    private let counters = ClientCounters()
    let driver: ConnectionDriver
    /// The event loop the connection lives on.
    public let eventLoop: any EventLoop

    /// A client that does nothing until ``connect()``; `logger` never receives passwords or message
    /// bodies. It runs on `eventLoop`, by default one of NIO's shared loops.
    public convenience init(options: AMQPClientOptions, logger: Logger, eventLoop: (any EventLoop)? = nil) {
        self.init(options: options, logger: logger, eventLoop: eventLoop ?? MultiThreadedEventLoopGroup.singleton.next(), connector: SocketConnector(), now: { .now })
    }

    init(options: AMQPClientOptions, logger: Logger, eventLoop: any EventLoop, connector: any AMQPConnector, now: @escaping @Sendable () -> ContinuousClock.Instant) {
        self.eventLoop = eventLoop
        driver = ConnectionDriver(options: options, logger: logger, loop: eventLoop, counters: counters, connector: connector, now: now)
    }

    deinit {
        // Without close() the connection would stay open; the driver holds no reference back to this client.
        submit(.close(nil))
    }

    /// Connects (trying each endpoint in order); throws the last failure if none can be reached on this
    /// first round, or within `window` when one is given (rounds repeat with the reconnect backoff, and a
    /// `close()` ends the wait). After that, the client reconnects by itself. Returns at once if already
    /// connected.
    public func connect(retryingFor window: Duration = .zero) async throws {
        try await withCheckedThrowingContinuation { submit(.connect(window, $0)) }
    }

    /// Declares exchanges, then queues, then bindings; idempotent. A mismatch with an existing queue's or
    /// exchange's settings throws ``AMQPError`` `.brokerClosed(replyCode: 406)`; the client stays usable.
    /// A 404 that another client's declaration of the same queue can cause is tried again for up to a
    /// second (``ConcurrentDeclaration``).
    public func declare(exchanges: [AMQPExchangeDeclaration] = [], queues: [AMQPQueueDeclaration] = [], bindings: [AMQPBindingDeclaration] = []) async throws {
        try await ConcurrentDeclaration.retrying {
            try await topology(.declare(exchanges: exchanges, queues: queues, bindings: bindings))
        }
    }

    /// Throws (a 404 ``AMQPError``) unless queue `name` exists; changes nothing (a passive declare).
    public func checkQueue(_ name: String) async throws {
        _ = try await topology(.checkQueue(name))
    }

    /// The messages ready in queue `name` now, as a passive declare reports them (unacknowledged
    /// deliveries are not counted); throws a 404 ``AMQPError`` when there is no such queue.
    public func readyMessageCount(inQueue name: String) async throws -> Int {
        try await topology(.checkQueue(name)).messages
    }

    /// The ready messages and the consumers of queue `name` now (a passive declare); throws a 404
    /// ``AMQPError`` when there is no such queue.
    public func counts(ofQueue name: String) async throws -> AMQPQueueCounts {
        try await topology(.checkQueue(name))
    }

    /// Removes a binding (a no-op when it does not exist; its exchange and destination must).
    public func unbind(_ binding: AMQPBindingDeclaration) async throws {
        try await topology(.unbind(binding))
    }

    /// Deletes a queue and its messages (for tests and tooling).
    public func deleteQueue(_ name: String) async throws {
        try await topology(.deleteQueue(name))
    }

    /// Deletes an exchange (for tests and tooling).
    public func deleteExchange(_ name: String) async throws {
        try await topology(.deleteExchange(name))
    }

    /// Removes every ready message from a queue (for tests and tooling).
    public func purgeQueue(_ name: String) async throws {
        try await topology(.purgeQueue(name))
    }

    /// Starts consuming `queue` with at most `prefetch` unacknowledged deliveries and manual acks.
    ///
    /// Deliveries of every connection generation come out of the one stream, and the consumer is started
    /// again after each reconnect. The stream finishes after ``cancelConsuming()`` or ``close()``. Its
    /// buffer is unbounded, but the broker never has more than `prefetch` unacked deliveries out. One
    /// consumer per client: a second call throws `.invalidArgument`.
    public func consume(queue: String, prefetch: UInt16) async throws -> AsyncStream<AMQPDelivery> {
        let (stream, continuation) = AsyncStream.makeStream(of: AMQPDelivery.self, bufferingPolicy: .unbounded)
        let request = ConsumeRequest(queues: [AMQPConsumedQueue(name: queue, prefetch: prefetch)], sink: .each(continuation))
        try await withCheckedThrowingContinuation { submit(.consume(request, $0)) }
        return stream
    }

    /// ``consume(queue:prefetch:)``, with the deliveries in the batches the connection reads them
    /// in: one hand-over, and one wake-up of the reading task, per batch rather than per delivery.
    public func consumeBatches(queue: String, prefetch: UInt16) async throws -> AsyncStream<[AMQPDelivery]> {
        try await consumeBatches(queues: [queue], prefetch: prefetch)
    }

    /// ``consumeBatches(queue:prefetch:)`` over several queues at once (a partitioned jobs queue): a
    /// consumer per queue on the one channel, each allowed an equal share of `prefetch` (rounded
    /// down, at least 1), so every queue is served and no more than `prefetch` are unacked in all.
    /// Their deliveries come out of one stream; acks work across them (delivery tags are the channel's).
    public func consumeBatches(queues: [String], prefetch: UInt16) async throws -> AsyncStream<[AMQPDelivery]> {
        try await consumeBatches(AMQPConsumedQueue.equalShares(of: prefetch, among: queues))
    }

    /// ``consumeBatches(queue:prefetch:)`` over several queues, each with its own limit of unacked
    /// deliveries (its consumer's `basic.qos`): a queue whose deliveries wait long for their acks cannot
    /// hold back another's. Each delivery names its ``AMQPDelivery/queue``.
    public func consumeBatches(_ queues: [AMQPConsumedQueue]) async throws -> AsyncStream<[AMQPDelivery]> {
        let (stream, continuation) = AsyncStream.makeStream(of: [AMQPDelivery].self, bufferingPolicy: .unbounded)
        let request = ConsumeRequest(queues: queues, sink: .batches(continuation))
        try await withCheckedThrowingContinuation { submit(.consume(request, $0)) }
        return stream
    }

    /// Publishes with publisher confirms and waits for the broker's verdict.
    ///
    /// Throws ``AMQPError`` `.connectionLost` when the connection or channel dropped before the confirm (the
    /// outcome is unknown), or `.notConnected` when there was no connection to send on (nothing was sent).
    /// A `mandatory` message no queue takes comes back as ``AMQPPublishOutcome/returned(replyCode:replyText:)``.
    ///
    /// With `generation`, the message goes out only on that connection generation (the one that
    /// delivered the message it answers, say); after a reconnect it fails with `.notConnected` and
    /// nothing is sent.
    public func publish(exchange: String, routingKey: String, message: AMQPMessage, mandatory: Bool, generation: UInt64? = nil) async throws -> AMQPPublishOutcome {
        let request = PublishRequest(exchange: exchange, routingKey: routingKey, message: message, mandatory: mandatory, generation: generation)
        return try await withCheckedThrowingContinuation { submit(.publish(request, $0)) }
    }

    /// Publishes `messages` with confirms on the connection that delivered `delivery`, and acks it once
    /// every one is confirmed: one trip to the event loop for a job's whole answer. Acks of
    /// consecutive deliveries go out together (`multiple`).
    ///
    /// Never throws: each message's outcome is in the result, and ``AMQPBatchOutcome/acked`` says whether
    /// the ack was written (false when any message was not confirmed, or the connection changed: then
    /// the delivery is not acked, and the caller decides what to do with it).
    public func publish(_ messages: [AMQPOutgoingMessage], thenAck delivery: AMQPDelivery) async -> AMQPBatchOutcome {
        await withCheckedContinuation { continuation in publish(messages, thenAck: delivery) { continuation.resume(returning: $0) } }
    }

    /// The same, from any thread, handing the outcome to `settled` on ``eventLoop`` instead of resuming
    /// a task: for a caller with only bookkeeping left to do once its delivery is settled, which then
    /// needs no hop back to a task of its own.
    public func publish(_ messages: [AMQPOutgoingMessage], thenAck delivery: AMQPDelivery, settled: @escaping @Sendable (AMQPBatchOutcome) -> Void) {
        let request = PublishBatchRequest(messages: messages, deliveryTag: delivery.deliveryTag, generation: delivery.generation)
        submit(.publishBatch(request, settled))
    }

    /// Acknowledges a delivery; silently dropped if it came from an older connection generation.
    public func ack(_ delivery: AMQPDelivery) async {
        await settle(delivery, .ack)
    }

    /// Rejects a delivery (back to the queue, or dropped / dead-lettered); dropped for an old generation.
    public func reject(_ delivery: AMQPDelivery, requeue: Bool) async {
        await settle(delivery, .reject(requeue: requeue))
    }

    /// Closes the connection of `generation`, if it is still the current one, and opens a new one (to
    /// the next node, after the usual reconnect delay); a request about an older connection does
    /// nothing. Unconfirmed publishes fail as outcome unknown, and the broker requeues the
    /// connection's unacknowledged deliveries, as when the connection drops.
    public func reopen(ifGeneration generation: UInt64, because reason: String) async {
        await withCheckedContinuation { submit(.reopen(generation: generation, reason: reason, $0)) }
    }

    /// `basic.cancel`, waiting for cancel-ok: no new deliveries after it returns, and the stream finishes.
    /// Deliveries already received can still be acked or rejected.
    public func cancelConsuming() async {
        await withCheckedContinuation { submit(.cancelConsuming($0)) }
    }

    /// Cancels consuming (if needed), waits up to ``AMQPClientOptions/closeTimeout`` for outstanding
    /// confirms, and closes the connection. Later calls fail with `.notConnected`.
    public func close() async {
        await withCheckedContinuation { submit(.close($0)) }
    }

    /// Connection generation now: incremented by each successful (re)connect; 0 before the first.
    public var generation: UInt64 { counters.generation.load(ordering: .relaxed) }

    /// Publishes awaiting confirms; for back-pressure and metrics.
    public var unconfirmedCount: Int { counters.unconfirmed.load(ordering: .relaxed) }

    /// Whether a connection to the broker is open right now (false while reconnecting), for readiness.
    public var isConnected: Bool { counters.connected.load(ordering: .relaxed) }

    /// The RabbitMQ release of the connection opened last; nil before the first, or if it names none.
    public var serverVersion: RabbitMQVersion? { counters.serverVersion }

    /// Whether the broker has our consumer registered right now, for readiness.
    public var isConsuming: Bool { counters.consuming.load(ordering: .relaxed) }

    @discardableResult
    private func topology(_ request: TopologyRequest) async throws -> AMQPQueueCounts {
        try await withCheckedThrowingContinuation { submit(.topology(request, $0)) }
    }

    private func settle(_ delivery: AMQPDelivery, _ kind: Settlement.Kind) async {
        let settlement = Settlement(deliveryTag: delivery.deliveryTag, generation: delivery.generation, kind: kind)
        await withCheckedContinuation { submit(.settle(settlement, $0)) }
    }

    /// Runs `command` on the loop: at once when the caller is on it, else as the loop's next task.
    func submit(_ command: ClientCommand) {
        if eventLoop.inEventLoop {
            driver.submit(command)
        } else {
            eventLoop.execute { [driver] in driver.submit(command) }
        }
    }
}
