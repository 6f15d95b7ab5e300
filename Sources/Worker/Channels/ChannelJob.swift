public import APNsCore
public import Foundation

/// A job about iOS 18 broadcast channels: a broadcast to a channel (`channel_id`), or a channel
/// management request (`channel_action`), decoded and validated.
public struct ChannelJob: Sendable {
    public let id: String
    /// The request exactly as it will go to APNs; its `apns-request-id` is derived from the job id, so a
    /// retry of the job carries the same one.
    public let request: ChannelRequest
    /// The credential named by the job; `nil` means "chosen by the bundle id".
    public let credentialName: String?
    public let environment: APNsEnvironment?
    public let deadline: Date?
    public let replyTo: String?
    public let previousAttempts: Int
    public let previousDeferrals: Int

    /// The action's name, as jobs and results spell it.
    public var action: String {
        switch request.operation {
        case .create: "create"
        case .read: "read"
        case .delete: "delete"
        case .list: "list"
        case .broadcast: "broadcast"
        }
    }

    /// The channel the request names (a create's is in its answer).
    public var channelID: String? {
        switch request.operation {
        case .read(let id), .delete(let id): id.value
        case .broadcast(let broadcast): broadcast.channelID.value
        case .create, .list: nil
        }
    }
}

/// What a job decodes to: a notification to devices, or a channel request.
public enum DecodedJob: Sendable {
    case notification(Job)
    case channel(ChannelJob)
}
