import APNsCore

/// What a connection sends: a push to a device (nearly every request), or a broadcast-channel request.
enum OutgoingRequest: Sendable {
    case notification(NotificationRequest)
    case channel(ChannelRequest)
}
