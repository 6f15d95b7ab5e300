/// What the connection driver must do after an event of ``ConnectionStateMachine``: every rabbitmq-c
/// call, every continuation resumed. `Equatable`, so the state machine's tests read as tables.
enum ConnectionAction: Equatable {
    /// Open a connection to endpoint `index` (login, work channel, confirm mode), then report
    /// ``ConnectionStateMachine/connected(now:)`` or ``ConnectionStateMachine/openFailed(_:now:)``.
    case open(endpointIndex: Int)
    /// Say goodbye to the current connection and destroy it (it failed, or the client closes).
    case closeConnection
    /// Check the queues, set the prefetch (per consumer) and start consuming each on the current
    /// channel, all or none; then report ``ConnectionStateMachine/consumerStarted(tags:)`` or
    /// ``ConnectionStateMachine/consumerFailed(_:connectionUsable:now:)``.
    case startConsumer(queues: [AMQPConsumedQueue])
    /// `basic.cancel` each consumer and hand out what arrived before the broker's cancel-oks.
    case cancelConsumer(tags: [String])
    /// The consumer is gone for good: finish its delivery stream.
    case finishDeliveries
    /// Resume the caller of a `consume()` request: with `error`, or started when nil.
    case answerConsume(AMQPError?)
    /// Write the waiting publish `id` (its sequence number is `sequence`).
    case send(PublishID, sequence: UInt64)
    /// Resume the caller of publish `id`.
    case resumePublish(PublishID, Result<AMQPPublishOutcome, AMQPError>)
    /// Resume the caller of a publish batch: each message's outcome, and whether its delivery was acked.
    case resumeBatch(BatchID, outcomes: PublishOutcomes, acked: Bool)
    case sendAck(deliveryTag: UInt64, multiple: Bool)
    case sendReject(deliveryTag: UInt64, requeue: Bool)
    /// The client is closed: resume whoever waited for `close()`, and stop the thread.
    case finishClose
}

/// Names a caller's publish while it waits; the driver keeps its continuation under it.
typealias PublishID = UInt64

/// Names a publish batch (messages published together, then their delivery acked).
typealias BatchID = UInt64

