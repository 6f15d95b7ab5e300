/// What the decoder needs from the broker's message besides the body.
public struct JobEnvelope: Sendable {
    public var body: [UInt8]
    /// The AMQP `message_id`, used as the job id when the body has none.
    public var messageID: String?
    public var replyTo: String?
    /// The `retry-attempt` header of a retried copy.
    public var previousAttempts: Int
    /// The `retry-deferred` header: tries APNs never processed.
    public var previousDeferrals: Int

    public init(body: [UInt8], messageID: String? = nil, replyTo: String? = nil, previousAttempts: Int = 0, previousDeferrals: Int = 0) {
        self.body = body
        self.messageID = messageID
        self.replyTo = replyTo
        self.previousAttempts = previousAttempts
        self.previousDeferrals = previousDeferrals
    }
}
