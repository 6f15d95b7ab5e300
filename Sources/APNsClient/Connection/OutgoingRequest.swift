import APNsCore
import HTTP2

/// What a connection sends: a push to a device (nearly every request), or a broadcast-channel request.
enum OutgoingRequest: Sendable {
    case notification(NotificationRequest)
    case channel(ChannelRequest)

    var body: [UInt8] {
        switch self {
        case .notification(let request): request.payload
        case .channel(let request): request.body
        }
    }

    func headers(authority: String, token: ProviderToken?) -> [HTTP2Header] {
        switch self {
        case .notification(let request): RequestHeaders.make(for: request, authority: authority, token: token)
        case .channel(let request): RequestHeaders.make(for: request, authority: authority, token: token)
        }
    }
}
