/// The `basic` class properties of a message: the content header every message carries.
public struct AMQPProperties: Sendable, Hashable {
    /// MIME type of the body, e.g. `application/json`.
    public var contentType: String?
    /// Application message identifier.
    public var messageID: String?
    /// Ties a reply or result to its request.
    public var correlationID: String?
    /// Where replies should go (a queue name).
    public var replyTo: String?
    /// `delivery_mode` 2: the broker writes the message to disk (quorum queues always do).
    public var persistent: Bool
    /// Application headers (the `headers` field table).
    public var headers: [String: AMQPFieldValue]
    /// Per-message TTL in milliseconds, as the decimal string AMQP wants.
    public var expiration: String?
    /// Seconds since 1970.
    public var timestamp: Int64?
    /// Application message type name.
    public var type: String?
    /// The publishing application.
    public var appID: String?

    /// Every property optional; transient and header-less by default.
    public init(
        contentType: String? = nil,
        messageID: String? = nil,
        correlationID: String? = nil,
        replyTo: String? = nil,
        persistent: Bool = false,
        headers: [String: AMQPFieldValue] = [:],
        expiration: String? = nil,
        timestamp: Int64? = nil,
        type: String? = nil,
        appID: String? = nil
    ) {
        self.contentType = contentType
        self.messageID = messageID
        self.correlationID = correlationID
        self.replyTo = replyTo
        self.persistent = persistent
        self.headers = headers
        self.expiration = expiration
        self.timestamp = timestamp
        self.type = type
        self.appID = appID
    }
}
