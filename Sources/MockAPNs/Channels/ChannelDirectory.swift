public import APNsCore
import NIOConcurrencyHelpers

/// The broadcast channels the mock knows, per app, with their storage policies and what was broadcast
/// to each: the ground truth for channel tests. One environment per mock server, as APNs keeps the
/// sandbox's channels apart from production's.
public final class ChannelDirectory: Sendable {
    /// One channel: its policy (fixed at creation), broadcasts accepted, and the last stored one.
    public struct Channel: Sendable, Hashable {
        public let policy: MessageStoragePolicy
        public var broadcasts = 0
        /// The most recent payload, kept only by a policy-1 channel.
        public var storedPayload: [UInt8]?
    }

    /// At most this many channels per app (APNs: 10,000 per app per environment).
    public let maximumPerApp: Int
    private let state = NIOLockedValueBox<[String: [String: Channel]]>([:])

    public init(maximumPerApp: Int = 10_000) {
        self.maximumPerApp = maximumPerApp
    }

    /// A new channel's id, or nil when the app has ``maximumPerApp`` already.
    func create(bundleID: String, policy: MessageStoragePolicy, id: String) -> String? {
        state.withLockedValue { apps in
            guard apps[bundleID, default: [:]].count < maximumPerApp else { return nil }
            apps[bundleID, default: [:]][id] = Channel(policy: policy)
            return id
        }
    }

    public func channel(_ id: String, of bundleID: String) -> Channel? {
        state.withLockedValue { $0[bundleID]?[id] }
    }

    /// Removes the channel; false when there was none.
    func delete(_ id: String, of bundleID: String) -> Bool {
        state.withLockedValue { $0[bundleID]?.removeValue(forKey: id) != nil }
    }

    /// The app's channel ids, sorted.
    public func ids(of bundleID: String) -> [String] {
        state.withLockedValue { ($0[bundleID] ?? [:]).keys.sorted() }
    }

    /// Records an accepted broadcast.
    func recordBroadcast(to id: String, of bundleID: String, payload: [UInt8]) {
        state.withLockedValue { apps in
            guard var channel = apps[bundleID]?[id] else { return }
            channel.broadcasts += 1
            if channel.policy == .mostRecentMessageStored { channel.storedPayload = payload }
            apps[bundleID]?[id] = channel
        }
    }

    /// Broadcasts accepted, over every channel of every app.
    public var broadcastCount: Int {
        state.withLockedValue { $0.values.reduce(0) { $0 + $1.values.reduce(0) { $0 + $1.broadcasts } } }
    }
}
