public import Foundation

/// When provider tokens are refreshed. APNs rejects tokens older than an hour and answers
/// `TooManyProviderTokenUpdates` when one connection changes token more often than every 20 minutes.
public struct ProviderTokenPolicy: Hashable, Sendable {
    /// APNs' floor between token changes on one connection.
    public static let minimumChangeInterval: TimeInterval = 20 * 60
    /// APNs' ceiling on token age (`ExpiredProviderToken` past it).
    public static let maximumTokenAge: TimeInterval = 60 * 60
    /// The refresh ages this policy accepts: 20 to 59 minutes, inclusive.
    public static let acceptedRefreshAges: ClosedRange<TimeInterval> = (20 * 60)...(59 * 60)
    /// 50 minutes: a good margin before an hour, like the well-known clients.
    public static let defaultRefreshAge: TimeInterval = 50 * 60

    /// A connection replaces its token once the token is this old.
    public let refreshAge: TimeInterval

    /// - Throws: ``ConfigurationError`` when `refreshAge` is outside 20...59 minutes.
    public init(refreshAge: TimeInterval = Self.defaultRefreshAge) throws(ConfigurationError) {
        guard Self.acceptedRefreshAges.contains(refreshAge) else {
            throw ConfigurationError(
                setting: "token refresh age",
                problem: "must be between 20 and 59 minutes (APNs forbids changing a connection's token more "
                    + "often than every 20 minutes and rejects tokens older than 60), not \(refreshAge / 60) minutes"
            )
        }
        self.refreshAge = refreshAge
    }

    /// The oldest a token may be when it is put on a connection: young enough that, when its refresh age
    /// comes, at least 20 minutes have passed on that connection, so the change is always allowed.
    public var maximumAgeAtInstall: TimeInterval { refreshAge - Self.minimumChangeInterval }
}
