import APNsCore

/// What a connection tells its pool; always sent from the connection's event loop.
enum ConnectionEvent: Hashable, Sendable {
    /// TLS and HTTP/2 are up; the connection takes this many streams.
    case ready(streamLimit: Int)
    /// The connection's stream limit changed (first accepted push, or new server SETTINGS).
    case streamLimitChanged(Int)
    /// The connection takes no new streams (GOAWAY, a token it may not change yet, a recycle reason).
    case draining(reason: String)
    /// APNs refused the credential itself (revoked key or certificate): every connection should go.
    case credentialRejected(APNsReason)
    /// The socket is closed. `failure` is why, when abnormal, as callers waiting for a connection would
    /// hear it; `wasReady` tells a failed attempt from a connection that served.
    case closed(APNsSendError?, wasReady: Bool)
}
