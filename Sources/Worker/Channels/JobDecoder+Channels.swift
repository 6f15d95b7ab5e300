import APNsCore
import Foundation
import JSON

/// Reading broadcast and channel-management jobs.
extension JobDecoder {
    /// The job as a channel job when it has `channel_id` (a broadcast) or `channel_action`; nil otherwise.
    static func makeChannelJob(id: String, reader: FieldReader, envelope: JobEnvelope) throws(JobError) -> ChannelJob? {
        let action = try reader.string("channel_action")
        guard action != nil || reader.present("channel_id") != nil else { return nil }
        for field in ["device_token", "device_tokens"] where reader.present(field) != nil {
            throw reader.invalid(field, "cannot be given in a channel job (it has \"channel_id\" or \"channel_action\")")
        }
        let bundleID = try bundleID(reader)
        let environment = try reader.string("environment").map { name throws(JobError) in
            guard let environment = APNsEnvironment(rawValue: name) else {
                throw reader.invalid("environment", "must be production or development, not \(UntrustedText.quoted(name))")
            }
            return environment
        }
        do {
            let operation = try operation(action ?? "broadcast", reader: reader)
            return ChannelJob(
                id: id,
                request: try ChannelRequest(bundleID: bundleID, operation: operation, requestID: APNsID.derived(fromJobID: id)),
                credentialName: try reader.name("credential"), environment: environment,
                deadline: try reader.number("deadline", in: 0...latestDeadline).map { Date(timeIntervalSince1970: $0) },
                replyTo: envelope.replyTo, previousAttempts: envelope.previousAttempts, previousDeferrals: envelope.previousDeferrals
            )
        } catch {
            throw JobError(reading: error, jobID: id)
        }
    }

    /// `bundle_id`, else `topic` without the Live Activity suffix (a channel belongs to an app).
    private static func bundleID(_ reader: FieldReader) throws(JobError) -> String {
        if let bundleID = try reader.string("bundle_id") { return bundleID }
        guard let topic = try reader.string("topic") else { throw reader.missing("bundle_id") }
        let suffix = PushType.liveActivity.topicSuffix ?? ""
        return topic.hasSuffix(suffix) ? String(topic.dropLast(suffix.count)) : topic
    }

    private static func operation(_ action: String, reader: FieldReader) throws -> ChannelRequest.Operation {
        func channelID() throws -> ChannelID {
            guard let text = try reader.string("channel_id") else { throw reader.missing("channel_id") }
            return try ChannelID(text)
        }
        switch action {
        case "create":
            guard let number = try reader.integer("message_storage_policy") else { throw reader.missing("message_storage_policy") }
            guard let policy = MessageStoragePolicy(rawValue: Int(clamping: number)) else {
                throw reader.invalid("message_storage_policy", "must be 0 (no message stored) or 1 (most recent message stored), not \(number)")
            }
            return .create(policy)
        case "read": return .read(try channelID())
        case "delete": return .delete(try channelID())
        case "list": return .list
        case "broadcast":
            if let pushType = try reader.string("push_type"), pushType != PushType.liveActivity.headerValue {
                throw reader.invalid("push_type", "must be liveactivity for a broadcast, not \(UntrustedText.quoted(pushType))")
            }
            guard let payload = reader.present("payload") else { throw reader.missing("payload") }
            guard payload.kind == .object else { throw reader.invalid("payload", "must be a JSON object, not \(payload.kind)") }
            return .broadcast(try ChannelRequest.Broadcast(
                channelID: try channelID(),
                priority: try reader.integer("priority").map { value throws(NotificationError) in try NotificationPriority(headerValue: String(value)) },
                expiration: try reader.integer("expiration").map(NotificationExpiration.init(epochSeconds:)),
                payload: Array(reader.members.bytes(of: payload))
            ))
        default:
            throw reader.invalid("channel_action", "must be create, read, delete, list or broadcast, not \(UntrustedText.quoted(action))")
        }
    }
}
