public import Foundation

/// A signed provider token (ES256 JWT) for the `authorization: bearer` header.
///
/// The JWT itself is reachable only through ``bearerHeaderValue``; `description`, `debugDescription` and
/// reflection show the key id and issue time, so a token cannot reach a log by interpolation or `dump`.
///
/// An immutable class: every request on a connection carries the token through the connection's
/// state machine and its actions, and each copy of a struct retained its strings one by one.
public final class ProviderToken: Hashable, Sendable, CustomStringConvertible, CustomDebugStringConvertible,
    CustomReflectable
{
    /// `bearer <JWT>`, built once: it goes into every request on the connection.
    private let bearer: String
    public let keyID: String
    public let teamID: String
    /// The `iat` claim: when the token was signed, in whole seconds.
    public let issuedAt: Date

    init(jwt: String, keyID: String, teamID: String, issuedAt: Date) {
        bearer = "bearer \(jwt)"
        self.keyID = keyID
        self.teamID = teamID
        self.issuedAt = issuedAt
    }

    /// Tokens are equal when they are the same signed token; the same object is the common case.
    public static func == (lhs: ProviderToken, rhs: ProviderToken) -> Bool {
        lhs === rhs || (lhs.bearer == rhs.bearer && lhs.keyID == rhs.keyID && lhs.teamID == rhs.teamID && lhs.issuedAt == rhs.issuedAt)
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(bearer)
    }

    /// `bearer <JWT>`: the value of the `authorization` header. Send it; never log it.
    public var bearerHeaderValue: String { bearer }

    /// How old the token is at `now`.
    public func age(at now: Date) -> TimeInterval { now.timeIntervalSince(issuedAt) }

    public var description: String {
        "ProviderToken(kid: \(keyID), iss: \(teamID), iat: \(Int64(issuedAt.timeIntervalSince1970)), jwt: <redacted>)"
    }

    public var debugDescription: String { description }
    public var customMirror: Mirror { Mirror(self, children: ["description": description]) }
}
