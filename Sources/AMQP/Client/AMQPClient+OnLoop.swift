internal import NIOCore

extension AMQPClient {
    /// The client as seen from its own event loop: calls that run at once, writing into the
    /// connection's outbound buffer, with no hop and no task. Valid only on ``eventLoop`` (each call
    /// checks); a caller elsewhere uses the async methods.
    public var onLoop: AMQPLoopBoundClient {
        eventLoop.preconditionInEventLoop()
        return AMQPLoopBoundClient(driver: driver)
    }

    /// Starts consuming `queues` (an equal share of `prefetch` each, as ``consumeBatches(queues:prefetch:)``)
    /// with `deliver` called on ``eventLoop`` with every batch read, where it can answer through
    /// ``onLoop`` at once. `finished` runs there once the consumer is gone for good (cancelled, or the
    /// client closed).
    public func consume(
        queues: [String], prefetch: UInt16, onLoop deliver: @escaping @Sendable ([AMQPDelivery]) -> Void,
        finished: @escaping @Sendable () -> Void = {}
    ) async throws {
        try await consume(AMQPConsumedQueue.equalShares(of: prefetch, among: queues), onLoop: deliver, finished: finished)
    }

    /// The same over queues each with its own limit of unacked deliveries, as ``consumeBatches(_:)``.
    public func consume(
        _ queues: [AMQPConsumedQueue], onLoop deliver: @escaping @Sendable ([AMQPDelivery]) -> Void,
        finished: @escaping @Sendable () -> Void = {}
    ) async throws {
        let request = ConsumeRequest(queues: queues, sink: .onLoop(deliver: deliver, finished: finished))
        try await withCheckedThrowingContinuation { submit(.consume(request, $0)) }
    }
}

/// ``AMQPClient`` on its event loop: see ``AMQPClient/onLoop``. Not to be kept or passed elsewhere.
public struct AMQPLoopBoundClient {
    let driver: ConnectionDriver

    /// Publishes `messages` with confirms on the connection that delivered `delivery` and acks it once
    /// every one is confirmed, as ``AMQPClient/publish(_:thenAck:)`` does; `completion` runs on the
    /// loop with the outcome.
    public func publish(_ messages: [AMQPOutgoingMessage], thenAck delivery: AMQPDelivery, completion: @escaping @Sendable (AMQPBatchOutcome) -> Void) {
        let request = PublishBatchRequest(messages: messages, deliveryTag: delivery.deliveryTag, generation: delivery.generation)
        driver.submit(.publishBatch(request, completion))
    }

    /// Acks `delivery` (coalesced with the others of this tick); dropped for an older connection's.
    public func ack(_ delivery: AMQPDelivery) {
        driver.settle(Settlement(deliveryTag: delivery.deliveryTag, generation: delivery.generation, kind: .ack))
    }

    /// Rejects `delivery`; dropped for an older connection's.
    public func reject(_ delivery: AMQPDelivery, requeue: Bool) {
        driver.settle(Settlement(deliveryTag: delivery.deliveryTag, generation: delivery.generation, kind: .reject(requeue: requeue)))
    }
}
