import APNsCore
import HTTP2

/// The HTTP/2 header block of one notification, encoded as APNs advises.
///
/// `:path` (a new device token almost every time) and `authorization` (a secret) are never indexed;
/// `apns-id` is unique per request, so indexing it would only evict useful entries from APNs' small
/// HPACK table. Everything else repeats and is indexed. (nghttp2 never indexes `authorization` in any
/// case, whatever the flag says.)
enum RequestHeaders {
    /// Replaces `headers` with `request`'s block. The connection passes the same array every time, so
    /// its storage is reused: a new array per request was an allocation (and, grown from empty, three).
    static func write(for request: NotificationRequest, authority: String, token: ProviderToken?, into headers: inout [HTTP2Header]) {
        headers.removeAll(keepingCapacity: true)
        headers.reserveCapacity(11)
        headers.append(HTTP2Header(":method", "POST"))
        headers.append(HTTP2Header(":scheme", "https"))
        headers.append(HTTP2Header(":authority", authority))
        headers.append(HTTP2Header(":path", request.path, neverIndexed: true))
        if let token {
            headers.append(HTTP2Header("authorization", token.bearerHeaderValue, neverIndexed: true))
        }
        headers.append(HTTP2Header("apns-push-type", request.pushType.headerValue))
        headers.append(HTTP2Header("apns-topic", request.topic))
        headers.append(HTTP2Header("apns-priority", request.priority.headerValue))
        if let expiration = request.expiration {
            headers.append(HTTP2Header("apns-expiration", expiration.headerValue))
        }
        if let collapseID = request.collapseID {
            headers.append(HTTP2Header("apns-collapse-id", collapseID.value))
        }
        if let apnsID = request.apnsID {
            headers.append(HTTP2Header("apns-id", apnsID.value, neverIndexed: true))
        }
        headers.append(HTTP2Header("content-type", "application/json"))
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
