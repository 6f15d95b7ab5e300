public import Foundation
public import TLS

/// Signs provider tokens for one (team, key) pair.
public struct ProviderTokenSigner: Sendable {
    public let teamID: String
    public let keyID: String
    private let key: ES256PrivateKey
    /// The base64url JWT header, identical for every token of this key.
    private let encodedHeader: String

    /// - Throws: ``ConfigurationError`` when the team or key id is not 10 upper-case letters or digits.
    public init(teamID: String, keyID: String, key: ES256PrivateKey) throws {
        try Self.validateIdentifier(teamID, named: "team id")
        try Self.validateIdentifier(keyID, named: "key id")
        self.teamID = teamID
        self.keyID = keyID
        self.key = key
        encodedHeader = Base64URL.encode(Array(#"{"alg":"ES256","kid":"\#(keyID)"}"#.utf8))
    }

    /// Loads the key from an App Store Connect `.p8` file, refusing one readable by group or others unless
    /// `allowGroupOrOtherAccess` is set.
    public init(teamID: String, keyID: String, keyFile path: String, allowGroupOrOtherAccess: Bool = false) throws {
        let pem = try KeyFile.read(path: path, allowGroupOrOtherAccess: allowGroupOrOtherAccess)
        try self.init(teamID: teamID, keyID: keyID, key: ES256PrivateKey(pemRepresentation: pem))
    }

    /// Signs a token whose `iat` is `issuedAt`, truncated to whole seconds (an integer, as APNs requires).
    public func token(issuedAt: Date) throws -> ProviderToken {
        let seconds = Int64(issuedAt.timeIntervalSince1970.rounded(.down))
        let claims = Base64URL.encode(Array(#"{"iss":"\#(teamID)","iat":\#(seconds)}"#.utf8))
        let signingInput = "\(encodedHeader).\(claims)"
        let signature = try key.signature(for: Array(signingInput.utf8))
        return ProviderToken(
            jwt: "\(signingInput).\(Base64URL.encode(signature))",
            keyID: keyID,
            teamID: teamID,
            issuedAt: Date(timeIntervalSince1970: TimeInterval(seconds))
        )
    }

    /// Apple's team and key ids are 10 characters of A–Z and 0–9; anything else is a typo worth stopping at.
    static func validateIdentifier(_ value: String, named name: String) throws(ConfigurationError) {
        let allowed = value.utf8.allSatisfy {
            (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains($0) || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0)
        }
        guard value.utf8.count == 10, allowed else {
            throw ConfigurationError(setting: name, problem: "must be 10 upper-case letters or digits, not \"\(value)\"")
        }
    }
}
