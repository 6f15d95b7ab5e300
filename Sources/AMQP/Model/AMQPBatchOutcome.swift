/// How a publish batch ended: each message's outcome, in order, and whether its delivery was acked.
public struct AMQPBatchOutcome: Sendable, Hashable {
    /// The broker's verdict on each message, or why there was none (``AMQPError``).
    public let outcomes: [Result<AMQPPublishOutcome, AMQPError>]
    /// True when every message was confirmed and the delivery's ack was written on its own connection.
    public let acked: Bool

    public init(outcomes: [Result<AMQPPublishOutcome, AMQPError>], acked: Bool) {
        self.outcomes = outcomes
        self.acked = acked
    }
}
