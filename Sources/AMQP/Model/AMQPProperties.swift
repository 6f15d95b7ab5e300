/// The `basic` class properties of a message: the content header every message carries.
///
/// A value, stored behind one reference that is copied on write: a job's properties travel from the
/// delivery into its result, its retry copy and the publish request, and a copy of seven strings and
/// a dictionary retained each of them, some 60 retains and as many releases a job (callgrind,
/// `scripts/bench-instructions.sh`). Now a copy retains one object.
public struct AMQPProperties: Sendable, Hashable {
    /// MIME type of the body, e.g. `application/json`.
    public var contentType: String? {
        get { storage.fields.contentType }
        set { uniqueStorage().fields.contentType = newValue }
    }
    /// Application message identifier.
    public var messageID: String? {
        get { storage.fields.messageID }
        set { uniqueStorage().fields.messageID = newValue }
    }
    /// Ties a reply or result to its request.
    public var correlationID: String? {
        get { storage.fields.correlationID }
        set { uniqueStorage().fields.correlationID = newValue }
    }
    /// Where replies should go (a queue name).
    public var replyTo: String? {
        get { storage.fields.replyTo }
        set { uniqueStorage().fields.replyTo = newValue }
    }
    /// `delivery_mode` 2: the broker writes the message to disk (quorum queues always do).
    public var persistent: Bool {
        get { storage.fields.persistent }
        set { uniqueStorage().fields.persistent = newValue }
    }
    /// Application headers (the `headers` field table).
    public var headers: [String: AMQPFieldValue] {
        get { storage.fields.headers }
        // Changed in place (`headers[name] = value`): with `set`, the change would be made to a copy
        // of the table, which its storage still shares, so every change copied the whole table.
        _modify { yield &uniqueStorage().fields.headers }
    }
    /// Per-message TTL in milliseconds, as the decimal string AMQP wants.
    public var expiration: String? {
        get { storage.fields.expiration }
        set { uniqueStorage().fields.expiration = newValue }
    }
    /// Seconds since 1970.
    public var timestamp: Int64? {
        get { storage.fields.timestamp }
        set { uniqueStorage().fields.timestamp = newValue }
    }
    /// Application message type name.
    public var type: String? {
        get { storage.fields.type }
        set { uniqueStorage().fields.type = newValue }
    }
    /// The publishing application.
    public var appID: String? {
        get { storage.fields.appID }
        set { uniqueStorage().fields.appID = newValue }
    }

    private var storage: Storage

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
        storage = Storage(
            Fields(
                contentType: contentType, messageID: messageID, correlationID: correlationID, replyTo: replyTo,
                persistent: persistent, headers: headers, expiration: expiration, timestamp: timestamp, type: type, appID: appID
            )
        )
    }

    public static func == (lhs: AMQPProperties, rhs: AMQPProperties) -> Bool {
        lhs.storage.fields == rhs.storage.fields
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(storage.fields)
    }

    /// The storage, copied first when another value shares it.
    private mutating func uniqueStorage() -> Storage {
        if !isKnownUniquelyReferenced(&storage) { storage = Storage(storage.fields) }
        return storage
    }
}

extension AMQPProperties: CustomReflectable {
    /// Shows the fields, as the plain struct did (in test failures, `dump` and descriptions), rather
    /// than the reference that holds them.
    public var customMirror: Mirror {
        Mirror(self, children: Mirror(reflecting: storage.fields).children, displayStyle: .struct)
    }
}

extension AMQPProperties {
    /// The one reference a value holds. `@unchecked Sendable` because only ``AMQPProperties`` holds it,
    /// and it writes to it only while it holds the one reference (``uniqueStorage()``): a shared storage
    /// is never written, so values in different tasks never touch the same memory mutably.
    private final class Storage: @unchecked Sendable {
        /// Unchecked at run time for the same reason: two overlapping accesses to one storage would
        /// need two overlapping accesses to the one value that holds it, which the compiler already
        /// refuses. The runtime's check cost 16 calls a job (`scripts/bench-instructions.sh`).
        @exclusivity(unchecked) var fields: Fields

        init(_ fields: Fields) {
            self.fields = fields
        }
    }

    /// The fields as one value, so equality and hashing are synthesized (and cannot miss a field).
    private struct Fields: Hashable {
        var contentType: String?
        var messageID: String?
        var correlationID: String?
        var replyTo: String?
        var persistent: Bool
        var headers: [String: AMQPFieldValue]
        var expiration: String?
        var timestamp: Int64?
        var type: String?
        var appID: String?
    }
}
