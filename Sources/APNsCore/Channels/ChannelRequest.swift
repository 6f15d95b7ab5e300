/// One request about iOS 18 broadcast channels: managing them (create, read, delete, list, on the
/// channel-management hosts) or broadcasting a Live Activity update to one (on the push hosts).
///
/// Built to Apple's reference (docs/broadcast.md lists where Apple's samples differ): every request
/// may carry an `apns-request-id`, which APNs echoes (or generates) and the answer carries back.
public struct ChannelRequest: Sendable, Hashable {
    /// What the request does.
    public enum Operation: Sendable, Hashable {
        /// `POST /1/apps/<bundle>/channels`: a new channel; its id comes back in `apns-channel-id`.
        case create(MessageStoragePolicy)
        /// `GET /1/apps/<bundle>/channels` with `apns-channel-id`: the channel's settings.
        case read(ChannelID)
        /// `DELETE /1/apps/<bundle>/channels` with `apns-channel-id`.
        case delete(ChannelID)
        /// `GET /1/apps/<bundle>/all-channels`: every channel of the app in this environment.
        case list
        /// `POST /4/broadcasts/apps/<bundle>` with `apns-channel-id`: a Live Activity update to every
        /// device subscribed to the channel.
        case broadcast(Broadcast)
    }

    /// A broadcast's notification: always push type `liveactivity`, no topic (the path names the app).
    public struct Broadcast: Sendable, Hashable {
        public let channelID: ChannelID
        public let priority: NotificationPriority
        /// A no-storage channel accepts only `0` (``NotificationExpiration/immediately``).
        public let expiration: NotificationExpiration?
        public let payload: [UInt8]

        /// The largest broadcast payload, in bytes.
        public static let maximumPayloadSize = 5120

        public init(channelID: ChannelID, priority: NotificationPriority? = nil, expiration: NotificationExpiration? = nil, payload: [UInt8]) throws(NotificationError) {
            let priority = priority ?? PushType.liveActivity.defaultPriority
            guard PushType.liveActivity.allowedPriorities.contains(priority) else {
                throw NotificationError(.badPriority, "a broadcast (liveactivity) allows priority 10 or 5, not \(priority)")
            }
            guard !payload.isEmpty else { throw NotificationError(.payloadEmpty, "the payload is empty") }
            guard payload.count <= Self.maximumPayloadSize else {
                throw NotificationError(.payloadTooLarge, "the payload has \(payload.count) bytes; a broadcast allows at most \(Self.maximumPayloadSize)")
            }
            self.channelID = channelID
            self.priority = priority
            self.expiration = expiration
            self.payload = payload
        }
    }

    /// The app's bundle id, as the path names it (no push-type suffix).
    public let bundleID: String
    public let operation: Operation
    /// `apns-request-id`: nil lets APNs generate one; set it to tie a retry to the first try.
    public let requestID: APNsID?

    public init(bundleID: String, operation: Operation, requestID: APNsID? = nil) throws(NotificationError) {
        guard !bundleID.isEmpty, bundleID.utf8.count <= 255,
            bundleID.utf8.allSatisfy({ Topic.isAllowed($0) })
        else {
            throw NotificationError(.badRequestParams, "the bundle id must be 1 to 255 letters, digits, '.', '-' or '_', not \(UntrustedText.quoted(bundleID))")
        }
        self.bundleID = bundleID
        self.operation = operation
        self.requestID = requestID
    }

    public var method: String {
        switch operation {
        case .create, .broadcast: "POST"
        case .read, .list: "GET"
        case .delete: "DELETE"
        }
    }

    public var path: String {
        switch operation {
        case .create, .read, .delete: "/1/apps/\(bundleID)/channels"
        case .list: "/1/apps/\(bundleID)/all-channels"
        case .broadcast: "/4/broadcasts/apps/\(bundleID)"
        }
    }

    /// Whether it goes to the push hosts (a broadcast) rather than the channel-management hosts.
    public var isBroadcast: Bool {
        if case .broadcast = operation { true } else { false }
    }

    /// The headers besides the pseudo-headers and `authorization`, in the order they are sent.
    public var headers: [(name: String, value: String)] {
        var headers: [(name: String, value: String)] = []
        switch operation {
        case .read(let id), .delete(let id):
            headers.append(("apns-channel-id", id.value))
        case .broadcast(let broadcast):
            headers.append(("apns-channel-id", broadcast.channelID.value))
            headers.append(("apns-push-type", PushType.liveActivity.headerValue))
            headers.append(("apns-priority", broadcast.priority.headerValue))
            if let expiration = broadcast.expiration { headers.append(("apns-expiration", expiration.headerValue)) }
        case .create, .list:
            break
        }
        if let requestID { headers.append(("apns-request-id", requestID.value)) }
        if !body.isEmpty { headers.append(("content-type", "application/json")) }
        return headers
    }

    /// The request body: the new channel's settings, a broadcast's payload, or nothing.
    public var body: [UInt8] {
        switch operation {
        case .create(let policy): Array(#"{"message-storage-policy":\#(policy.rawValue),"push-type":"LiveActivity"}"#.utf8)
        case .broadcast(let broadcast): broadcast.payload
        case .read, .delete, .list: []
        }
    }
}
