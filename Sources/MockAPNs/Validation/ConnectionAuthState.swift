import Foundation
public import TLS

/// Per-connection authentication state, mutated by ``RequestValidator``.
///
/// APNs keeps state per HTTP/2 connection: the team bound at the first accepted push, the provider token in
/// use and when it was put there (changes sooner than 20 minutes apart are refused), and the tokens it has
/// already verified — it evidently does not pay for an ECDSA verification on every request, and neither
/// does the mock, which is benchmarked at tens of thousands of requests a second.
public struct ConnectionAuthState: Sendable {
    /// The bundle id of the client certificate (its subject UID); `nil` on a token-based connection.
    public let clientCertificateBundleID: String?
    /// The team this connection serves, bound at its first accepted push (token connections only).
    public private(set) var boundTeamID: String?
    /// Whether any push was accepted on this connection; until then APNs allows one stream.
    public private(set) var hasAcceptedPush = false
    /// How many times a JWT was parsed and signature-checked on this connection: once per distinct token
    /// while it stays in the cache, so tests can see that a steady token is not re-verified.
    public private(set) var verifiedSignatureCount = 0

    /// The whole `authorization` value of the token in use: a steady connection costs one string comparison.
    private(set) var currentAuthorization: String?
    private(set) var currentToken: VerifiedProviderToken?
    /// When the current token was installed (first token) or last changed to, on the validator's clock.
    private(set) var currentTokenInstalledAt: Date?
    private var verifiedTokens = VerifiedTokenCache(capacity: 4)

    /// A connection whose client certificate names `clientCertificateBundleID`, or a token-based one (`nil`).
    ///
    /// This initializer exists because `PeerCertificate` can only be made by the TLS module.
    public init(clientCertificateBundleID: String?) {
        self.clientCertificateBundleID = clientCertificateBundleID
    }

    /// A connection authenticated by `clientCertificate`, or by tokens when there is none. A certificate
    /// without a subject UID names no bundle, so it authorizes nothing and the connection needs tokens.
    public init(clientCertificate: PeerCertificate?) {
        self.init(clientCertificateBundleID: clientCertificate?.userID)
    }

    /// A token this connection has verified before, found by its `authorization` value.
    func verifiedToken(for authorization: String) -> VerifiedProviderToken? {
        authorization == currentAuthorization ? currentToken : verifiedTokens.token(for: authorization)
    }

    /// Remembers a token whose structure, key, issuer and signature checked out.
    mutating func recordVerification(of token: VerifiedProviderToken?, for authorization: String) {
        verifiedSignatureCount += 1
        if let token { verifiedTokens.insert(token, for: authorization) }
    }

    /// Makes `token` the one in use; the first is an installation, later ones are changes.
    mutating func install(_ token: VerifiedProviderToken, authorization: String, at now: Date) {
        currentAuthorization = authorization
        currentToken = token
        currentTokenInstalledAt = now
    }

    /// Binds the team at the first accepted push; later pushes are from the same team by then.
    mutating func recordAcceptedPush(teamID: String?) {
        hasAcceptedPush = true
        if boundTeamID == nil { boundTeamID = teamID }
    }
}
