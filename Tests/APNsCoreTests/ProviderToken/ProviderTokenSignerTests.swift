import Foundation
import Testing
import TLS
import TestSupport
@testable import APNsCore

@Suite("Provider token signing (ES256 JWT)")
struct ProviderTokenSignerTests {
    let signer: ProviderTokenSigner
    let publicKey: ES256PublicKey

    init() throws {
        let key = try ES256PrivateKey(pemRepresentation: Fixtures.text("keys/AuthKey_TESTKEY001.p8"))
        signer = try ProviderTokenSigner(teamID: "TEAMID0001", keyID: "TESTKEY001", key: key)
        publicKey = try ES256PublicKey(pemRepresentation: Fixtures.text("keys/AuthKey_TESTKEY001.pub.pem"))
    }

    func parts(of token: ProviderToken) -> [Substring] {
        let jwt = token.bearerHeaderValue.dropFirst("bearer ".count)
        return jwt.split(separator: ".", omittingEmptySubsequences: false)
    }

    @Test("header and claims are exactly {alg,kid} and {iss,iat} with an integer iat")
    func structure() throws {
        let token = try signer.token(issuedAt: Date(timeIntervalSince1970: 1_800_000_123.9))
        let parts = parts(of: token)
        #expect(parts.count == 3)
        let header = String(decoding: try #require(Base64URL.decode(parts[0])), as: UTF8.self)
        let claims = String(decoding: try #require(Base64URL.decode(parts[1])), as: UTF8.self)
        #expect(header == #"{"alg":"ES256","kid":"TESTKEY001"}"#)
        #expect(claims == #"{"iss":"TEAMID0001","iat":1800000123}"#)
        let decoded = try #require(try JSONSerialization.jsonObject(with: Data(claims.utf8)) as? [String: Any])
        #expect(decoded["iat"] is NSNumber)
        #expect(!(decoded["iat"] is String))
        #expect(token.issuedAt == Date(timeIntervalSince1970: 1_800_000_123))
    }

    @Test("the signature is 64 bytes of base64url without padding and verifies with the public key")
    func signature() throws {
        let token = try signer.token(issuedAt: Date(timeIntervalSince1970: 1_800_000_000))
        let parts = parts(of: token)
        for part in parts {
            #expect(!part.contains("=") && !part.contains("+") && !part.contains("/"))
        }
        let signature = try #require(Base64URL.decode(parts[2]))
        #expect(signature.count == 64)
        #expect(publicKey.isValidSignature(signature, for: Array("\(parts[0]).\(parts[1])".utf8)))
        #expect(!publicKey.isValidSignature(signature, for: Array("\(parts[0]).\(parts[0])".utf8)))
    }

    @Test("a token never shows its JWT in descriptions, debug output or dumps")
    func redaction() throws {
        let token = try signer.token(issuedAt: Date(timeIntervalSince1970: 1_800_000_000))
        let jwt = String(token.bearerHeaderValue.dropFirst("bearer ".count))
        var dumped = ""
        dump(token, to: &dumped)
        for text in ["\(token)", String(reflecting: token), dumped, "\([token])"] {
            #expect(!text.contains(jwt))
            #expect(!text.contains(String(parts(of: token)[2])))
            #expect(text.contains("TESTKEY001") || text.contains("redacted"))
        }
    }

    @Test("team and key ids must be 10 upper-case letters or digits", arguments: ["TEAMID001", "teamid0001", "TEAMID0001X", "TEAM-ID001", ""])
    func identifiers(bad: String) throws {
        let key = try ES256PrivateKey(pemRepresentation: Fixtures.text("keys/AuthKey_TESTKEY001.p8"))
        #expect(throws: ConfigurationError.self) { try ProviderTokenSigner(teamID: bad, keyID: "TESTKEY001", key: key) }
        #expect(throws: ConfigurationError.self) { try ProviderTokenSigner(teamID: "TEAMID0001", keyID: bad, key: key) }
    }

    @Test("a key file is loaded when private and refused when others can read it")
    func keyFiles() throws {
        let privatePath = try Fixtures.privateCopy(of: "keys/AuthKey_TESTKEY001.p8")
        let loaded = try ProviderTokenSigner(teamID: "TEAMID0001", keyID: "TESTKEY001", keyFile: privatePath)
        let token = try loaded.token(issuedAt: Date())
        let parts = parts(of: token)
        #expect(publicKey.isValidSignature(try #require(Base64URL.decode(parts[2])), for: Array("\(parts[0]).\(parts[1])".utf8)))

        let openPath = try Fixtures.privateCopy(of: "keys/AuthKey_TESTKEY001.p8", mode: 0o644)
        let error = #expect(throws: KeyError.self) {
            try ProviderTokenSigner(teamID: "TEAMID0001", keyID: "TESTKEY001", keyFile: openPath)
        }
        #expect(error?.code == .insecurePermissions)
        _ = try ProviderTokenSigner(teamID: "TEAMID0001", keyID: "TESTKEY001", keyFile: openPath, allowGroupOrOtherAccess: true)
    }

    @Test("malformed and non-P-256 key files are refused", arguments: [
        ("keys/malformed.p8", KeyError.Code.malformedKey), ("keys/p384.p8", .wrongCurve), ("keys/rsa.p8", .notEllipticCurve),
    ])
    func badKeyFiles(file: String, code: KeyError.Code) throws {
        let path = try Fixtures.privateCopy(of: file)
        let error = #expect(throws: KeyError.self) {
            try ProviderTokenSigner(teamID: "TEAMID0001", keyID: "TESTKEY001", keyFile: path)
        }
        #expect(error?.code == code)
    }
}
