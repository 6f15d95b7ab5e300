import TLS

/// Parses a provider token (ES256 JWT) and checks it against the configured keys: the expensive half of
/// token authentication, which the validator runs once per distinct token per connection.
struct ProviderTokenVerifier: Sendable {
    private let keys: [String: MockSigningKey]

    /// The first key listed wins when two share a key id.
    init(keys: [MockSigningKey]) {
        self.keys = Dictionary(keys.map { ($0.keyID, $0) }, uniquingKeysWith: { first, _ in first })
    }

    /// The token's key, team and issue time, or `nil` when anything APNs answers `InvalidProviderToken` for is
    /// wrong: the shape, `alg` other than ES256, an unknown `kid`, an `iss` other than the key's team, an `iat`
    /// that is not an integer (a string `iat` was APNSwift's historic bug), or the signature.
    func verify(jwt: Substring) -> VerifiedProviderToken? {
        let parts = jwt.utf8.split(separator: UInt8(ascii: "."), maxSplits: 3, omittingEmptySubsequences: false)
        guard parts.count == 3, parts.allSatisfy({ !$0.isEmpty }),
            let headerBytes = Base64URLDecoder.decode(parts[0]),
            let header = JSONScanner.scalarMembers(of: headerBytes),
            header["alg"] == .string("ES256"),
            case .string(let keyID)? = header["kid"],
            let key = keys[keyID],
            let claimBytes = Base64URLDecoder.decode(parts[1]),
            let claims = JSONScanner.scalarMembers(of: claimBytes),
            claims["iss"] == .string(key.teamID),
            case .integer(let issuedAt)? = claims["iat"],
            let signature = Base64URLDecoder.decode(parts[2]), signature.count == 64
        else { return nil }
        let signingInput = jwt.utf8[jwt.utf8.startIndex..<parts[1].endIndex]
        guard key.publicKey.isValidSignature(signature, for: signingInput) else { return nil }
        return VerifiedProviderToken(keyID: keyID, teamID: key.teamID, issuedAtSeconds: issuedAt)
    }
}
