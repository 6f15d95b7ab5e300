/// What to do after a failed send: the one classification every later layer (client, worker) uses.
public enum Disposition: Hashable, Sendable, CaseIterable, CustomStringConvertible {
    /// Retrying cannot help (bad token, bad request, unregistered device): report it and stop.
    case permanent
    /// Transient trouble (overload, server error, timeout): retry later with backoff.
    case retryLater
    /// The provider token was too old: take a fresh token and retry once.
    case retryAfterTokenRefresh
    /// The connection itself is unusable (shutting down, idle, token updated too often): retire it and
    /// retry on a new connection.
    case recycleConnection
    /// The credential is rejected (bad or revoked key or certificate): stop using it, do not retry in a loop.
    case credentialFailure

    public var description: String {
        switch self {
        case .permanent: "permanent"
        case .retryLater: "retry-later"
        case .retryAfterTokenRefresh: "retry-after-token-refresh"
        case .recycleConnection: "recycle-connection"
        case .credentialFailure: "credential-failure"
        }
    }
}

extension Disposition {
    /// Classifies an APNs rejection; reasons this version does not know are classified by HTTP status.
    public init(reason: APNsReason, status: Int) {
        switch reason {
        case .tooManyRequests, .internalServerError, .serviceUnavailable:
            self = .retryLater
        case .expiredProviderToken:
            self = .retryAfterTokenRefresh
        case .tooManyProviderTokenUpdates, .shutdown, .idleTimeout:
            self = .recycleConnection
        case .badCertificate, .badCertificateEnvironment, .invalidProviderToken, .missingProviderToken,
            .unrelatedKeyIDInToken, .badEnvironmentKeyIDInToken:
            self = .credentialFailure
        case .unknown:
            self = Self.byStatus(status)
        default:
            self = .permanent
        }
    }

    /// The fallback for reasons nobody has seen yet: 5xx and 429 are transient, 403 is about credentials,
    /// any other 4xx is about the request.
    static func byStatus(_ status: Int) -> Disposition {
        switch status {
        case 429, 500...599: .retryLater
        case 403: .credentialFailure
        default: .permanent
        }
    }
}
