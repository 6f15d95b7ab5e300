public import TLS

/// A key the mock accepts provider tokens from: an App Store Connect key id, its team, and its public half.
public struct MockSigningKey: Sendable {
    /// The JWT header's `kid`.
    public let keyID: String
    /// The team the key belongs to; a token's `iss` must name it.
    public let teamID: String
    public let publicKey: ES256PublicKey

    public init(keyID: String, teamID: String, publicKey: ES256PublicKey) {
        self.keyID = keyID
        self.teamID = teamID
        self.publicKey = publicKey
    }
}
