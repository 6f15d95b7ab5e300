public import TLS

/// How the client proves to APNs who it is: a signing key (provider tokens) or a client certificate.
///
/// A credential is known by its `name`, which must be unique within a client: connections are pooled
/// per (name, endpoint).
public struct APNsCredential: Sendable, CustomStringConvertible {
    public enum Authentication: Sendable {
        /// Token-based: an ES256 JWT from this source in every request's `authorization` header.
        case token(ProviderTokenSource)
        /// Certificate-based: the TLS client certificate authenticates the whole connection.
        case certificate(TLSIdentity)
    }

    public let name: String
    public let authentication: Authentication
    /// Connections for this credential's pools; `nil` takes ``APNsClientConfiguration/connectionsPerPool``.
    public let connections: Int?
    /// The HTTP proxy this credential's connections tunnel through; `nil` takes ``APNsClientConfiguration/proxy``.
    public let proxy: HTTPProxy?
    /// Which load of the named credential this is. A reload that changes a credential's key or
    /// certificate makes a new revision, which gets connections of its own while the old revision's
    /// finish their streams (``APNsClient/retire(credential:revision:)``).
    public let revision: Int

    public init(name: String, authentication: Authentication, connections: Int? = nil, proxy: HTTPProxy? = nil, revision: Int = 0) {
        self.name = name
        self.authentication = authentication
        self.connections = connections
        self.proxy = proxy
        self.revision = revision
    }

    /// The same credential as a new revision.
    public func revised(_ revision: Int) -> APNsCredential {
        APNsCredential(name: name, authentication: authentication, connections: connections, proxy: proxy, revision: revision)
    }

    /// Whether requests carry provider tokens (and the stream ramp applies).
    public var usesTokens: Bool {
        if case .token = authentication { return true }
        return false
    }

    public var description: String {
        switch authentication {
        case .token(let source): "\(name) (token, team \(source.signer.teamID), key \(source.signer.keyID))"
        case .certificate(let identity): "\(name) (certificate, \(identity))"
        }
    }
}
