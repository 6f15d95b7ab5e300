import APNsCore
import HTTP2

/// The HTTP/2 header block of one notification, encoded as APNs advises.
///
/// `:path` (a new device token almost every time) and `authorization` (a secret) are never indexed;
/// `apns-id` is unique per request, so indexing it would only evict useful entries from APNs' small
/// HPACK table. Everything else repeats and is indexed. (nghttp2 never indexes `authorization` in any
/// case, whatever the flag says.)
enum RequestHeaders {
    /// The fields every push on a connection shares, laid out (and `:authority` checked) once.
    static func template(authority: String) -> HTTP2HeaderBlock {
        var block = HTTP2HeaderBlock()
        block.reserveCapacity(fields: 11, bytes: 512)
        block.append(":method", "POST")
        block.append(":scheme", "https")
        block.append(":authority", authority)
        return block
    }

    /// How many fields ``template(authority:)`` holds.
    static let templateCount = 3

    /// Replaces what follows the template in `block` with `request`'s fields. The connection passes
    /// the same block every time, so its storage is reused and the template's fields stay as they are.
    static func write(for request: NotificationRequest, token: ProviderToken?, into block: inout HTTP2HeaderBlock) {
        block.removeFields(after: templateCount)
        // The device token, the provider token and the apns-id are valid header values by construction.
        block.append(":path", prefix: NotificationRequest.pathPrefix, trusted: request.deviceToken.hexString, neverIndexed: true)
        if let token {
            block.append("authorization", trusted: token.bearerHeaderValue, neverIndexed: true)
        }
        block.append("apns-push-type", request.pushType.headerValue)
        block.append("apns-topic", request.topic)
        block.append("apns-priority", decimal: Int64(request.priority.rawValue))
        if let expiration = request.expiration {
            block.append("apns-expiration", decimal: expiration.epochSeconds)
        }
        if let collapseID = request.collapseID {
            block.append("apns-collapse-id", collapseID.value)
        }
        if let apnsID = request.apnsID {
            block.append("apns-id", trusted: apnsID.value, neverIndexed: true)
        }
        block.append("content-type", "application/json")
    }

    /// A channel request's header block: like a push's, `:path` and `authorization` never indexed;
    /// `apns-channel-id` and `apns-request-id` change per request, so they are not indexed either.
    static func make(for request: ChannelRequest, authority: String, token: ProviderToken?) -> [HTTP2Header] {
        var headers = [
            HTTP2Header(":method", request.method),
            HTTP2Header(":scheme", "https"),
            HTTP2Header(":authority", authority),
            HTTP2Header(":path", request.path, neverIndexed: true),
        ]
        if let token {
            headers.append(HTTP2Header("authorization", token.bearerHeaderValue, neverIndexed: true))
        }
        for (name, value) in request.headers {
            headers.append(HTTP2Header(name, value, neverIndexed: name == "apns-channel-id" || name == "apns-request-id"))
        }
        return headers
    }
}
