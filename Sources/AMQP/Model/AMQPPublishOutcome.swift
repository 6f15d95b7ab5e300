/// The broker's verdict on one confirmed publish.
public enum AMQPPublishOutcome: Sendable, Hashable {
    /// The broker took responsibility for the message (basic.ack).
    case confirmed
    /// A `mandatory` message no queue would take came back (basic.return), e.g. 312 NO_ROUTE.
    case returned(replyCode: UInt16, replyText: String)
    /// The broker refused the message (basic.nack), e.g. a full queue with `x-overflow: reject-publish`.
    case nacked
}
