public import Foundation

/// The provider token of one HTTP/2 connection, and when it may change.
///
/// APNs counts token changes per connection: more than one per 20 minutes draws
/// `TooManyProviderTokenUpdates`. This state machine keeps a connection's token until its refresh age,
/// and when a change would come too soon it answers ``Action/retireConnection`` instead: a new
/// connection may start with a new token at any time.
public struct ConnectionTokenState: Sendable {
    /// What the connection should do before sending.
    public enum Action: Hashable, Sendable {
        /// Send with this token.
        case send(with: ProviderToken)
        /// This connection may not change its token yet: finish its streams, open a fresh connection.
        case retireConnection
    }

    public let policy: ProviderTokenPolicy
    /// The token the connection uses now, if it has sent anything.
    public private(set) var token: ProviderToken?
    /// When ``token`` was put on this connection.
    public private(set) var installedAt: Date?

    public init(policy: ProviderTokenPolicy) {
        self.policy = policy
    }

    /// The token for the next request, at the source's current time: the current one until it reaches the refresh age, then a
    /// new one from `source`.
    public mutating func beforeRequest(source: ProviderTokenSource) throws -> Action {
        let now = source.now()
        guard let token, let installedAt else {
            return try install(source.tokenForInstall(), at: now)
        }
        guard token.age(at: now) >= policy.refreshAge else {
            return .send(with: token)
        }
        guard now.timeIntervalSince(installedAt) >= ProviderTokenPolicy.minimumChangeInterval else {
            return .retireConnection
        }
        return try install(source.tokenForInstall(excluding: token), at: now)
    }

    /// After APNs answered `ExpiredProviderToken` for `rejected`: a new token for one retry, or, if this
    /// connection changed its token less than 20 minutes ago, retirement.
    public mutating func afterExpiredToken(_ rejected: ProviderToken, source: ProviderTokenSource) throws -> Action {
        let now = source.now()
        guard let token, let installedAt else {
            return try install(source.tokenForInstall(excluding: rejected), at: now)
        }
        // Another request on this connection already moved past the rejected token.
        if token != rejected { return .send(with: token) }
        guard now.timeIntervalSince(installedAt) >= ProviderTokenPolicy.minimumChangeInterval else {
            return .retireConnection
        }
        return try install(source.tokenForInstall(excluding: rejected), at: now)
    }

    private mutating func install(_ new: ProviderToken, at now: Date) -> Action {
        token = new
        installedAt = now
        return .send(with: new)
    }
}
