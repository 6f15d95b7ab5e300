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

    /// Replaces `headers` with this request's header block (see ``RequestHeaders``).
    func writeHeaders(authority: String, token: ProviderToken?, into headers: inout [HTTP2Header]) {
        switch self {
        case .notification(let request): RequestHeaders.write(for: request, authority: authority, token: token, into: &headers)
        case .channel(let request): headers = RequestHeaders.make(for: request, authority: authority, token: token)
        }
    }
}
