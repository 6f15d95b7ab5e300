import APNsCore
import JSON
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
            let headerBytes = Base64URL.decode(parts[0]),
            let header = Self.members(headerBytes),
            header["alg"].flatMap(header.string) == "ES256",
            let keyID = header["kid"].flatMap(header.string),
            let key = keys[keyID],
            let claimBytes = Base64URL.decode(parts[1]),
            let claims = Self.members(claimBytes),
            claims["iss"].flatMap(claims.string) == key.teamID,
            let issuedAt = claims["iat"].flatMap(claims.integer),
            let signature = Base64URL.decode(parts[2]), signature.count == 64
        else { return nil }
        let signingInput = jwt.utf8[jwt.utf8.startIndex..<parts[1].endIndex]
        guard key.publicKey.isValidSignature(signature, for: signingInput) else { return nil }
        return VerifiedProviderToken(keyID: keyID, teamID: key.teamID, issuedAtSeconds: issuedAt)
    }

    /// The members of a JWT header or claims object; nil unless it is one valid object (a repeated
    /// `iss` is ambiguous, so the strict reader refuses it rather than guessing).
    private static func members(_ bytes: [UInt8]) -> JSONObjectMembers? {
        let reading = JSONReader.readObject(bytes)
        return reading.error == nil ? reading.members : nil
    }
}
