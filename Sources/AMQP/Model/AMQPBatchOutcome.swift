/// How a publish batch ended: each message's outcome, in order, and whether its delivery was acked.
public struct AMQPBatchOutcome: Sendable, Hashable {
    /// The broker's verdict on each message, or why there was none (``AMQPError``); an array made
    /// on each access.
    public var outcomes: [Result<AMQPPublishOutcome, AMQPError>] { compact.all }
    /// True when every message was confirmed and the delivery's ack was written on its own connection.
    public let acked: Bool

    /// Made into an array only when asked for: the worker reads a batch's outcomes only when it was
    /// not acked.
    let compact: PublishOutcomes

    public init(outcomes: [Result<AMQPPublishOutcome, AMQPError>], acked: Bool) {
        self.init(PublishOutcomes(outcomes), acked: acked)
    }

    init(_ outcomes: PublishOutcomes, acked: Bool) {
        compact = outcomes
        self.acked = acked
    }
}
