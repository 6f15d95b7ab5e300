import APNsCore
import Foundation
import HTTP2
import TLS
import TestSupport
@testable import MockAPNs

/// Real keys, a manual clock, a validator and request builders shared by the validation tests.
///
/// Teams: TEAMID0001 owns keys TESTKEY001 and TESTKEY003 (the latter reuses the second fixture key pair)
/// and bundle com.example.one; TEAMID0002 owns TESTKEY002 and com.example.two.
struct ValidationHarness {
    static let team1 = "TEAMID0001"
    static let team2 = "TEAMID0002"
    static let bundle1 = "com.example.one"
    static let bundle2 = "com.example.two"
    static let deviceHex = String(repeating: "0123456789abcdef", count: 4)
    static let alertBody = Array(#"{"aps":{"alert":"hello"}}"#.utf8)

    let clock = ManualWallClock()
    let key1: ES256PrivateKey
    let key2: ES256PrivateKey
    /// TESTKEY001 of TEAMID0001.
    let signer1: ProviderTokenSigner
    /// TESTKEY002 of TEAMID0002.
    let signer2: ProviderTokenSigner
    /// TESTKEY003 of TEAMID0001: another key of the first team.
    let signer3: ProviderTokenSigner
    let validator: RequestValidator

    init(registry: DeviceRegistry = DeviceRegistry()) throws {
        key1 = try ES256PrivateKey(pemRepresentation: Fixtures.text("keys/AuthKey_TESTKEY001.p8"))
        key2 = try ES256PrivateKey(pemRepresentation: Fixtures.text("keys/AuthKey_TESTKEY002.p8"))
        signer1 = try ProviderTokenSigner(teamID: Self.team1, keyID: "TESTKEY001", key: key1)
        signer2 = try ProviderTokenSigner(teamID: Self.team2, keyID: "TESTKEY002", key: key2)
        signer3 = try ProviderTokenSigner(teamID: Self.team1, keyID: "TESTKEY003", key: key2)
        let public1 = try ES256PublicKey(pemRepresentation: Fixtures.text("keys/AuthKey_TESTKEY001.pub.pem"))
        let public2 = try ES256PublicKey(pemRepresentation: Fixtures.text("keys/AuthKey_TESTKEY002.pub.pem"))
        let configuration = MockAPNsConfiguration(
            signingKeys: [
                MockSigningKey(keyID: "TESTKEY001", teamID: Self.team1, publicKey: public1),
                MockSigningKey(keyID: "TESTKEY002", teamID: Self.team2, publicKey: public2),
                MockSigningKey(keyID: "TESTKEY003", teamID: Self.team1, publicKey: public2),
            ],
            teamTopics: [Self.team1: [Self.bundle1], Self.team2: [Self.bundle2]],
            registry: registry
        )
        validator = RequestValidator(configuration: configuration, clock: clock)
    }

    /// The `authorization` value of a token signed `offset` seconds from the clock's now.
    func bearer(_ signer: ProviderTokenSigner? = nil, issuedAfter offset: TimeInterval = 0) throws -> String {
        try (signer ?? signer1).token(issuedAt: clock.now().addingTimeInterval(offset)).bearerHeaderValue
    }

    /// `bearer <JWT>` for hand-written header and claims JSON, signed with `key` (the first key by default),
    /// so a test can break exactly one thing while the rest stays valid.
    func craftedBearer(header: String, claims: String, key: ES256PrivateKey? = nil) throws -> String {
        let input = "\(Self.base64URL(Array(header.utf8))).\(Self.base64URL(Array(claims.utf8)))"
        let signature = try (key ?? key1).signature(for: Array(input.utf8))
        return "bearer \(input).\(Self.base64URL(signature))"
    }

    /// Claims with the clock's now as `iat`.
    func claims(iss: String = team1) -> String {
        #"{"iss":"\#(iss)","iat":\#(Int64(clock.now().timeIntervalSince1970))}"#
    }

    static func base64URL(_ bytes: [UInt8]) -> String {
        Base64URL.encode(bytes)
    }

    /// A request; `nil` leaves a header out. `extra` headers are appended as they are.
    static func request(
        method: String = "POST",
        path: String? = "/3/device/\(deviceHex)",
        authorization: String?,
        pushType: String? = "alert",
        topic: String? = bundle1,
        extra: [HTTP2Header] = [],
        body: [UInt8] = alertBody
    ) -> MockRequest {
        var headers = [HTTP2Header(":method", method), HTTP2Header(":scheme", "https")]
        if let path { headers.append(HTTP2Header(":path", path, neverIndexed: true)) }
        if let authorization { headers.append(HTTP2Header("authorization", authorization, neverIndexed: true)) }
        if let pushType { headers.append(HTTP2Header("apns-push-type", pushType)) }
        if let topic { headers.append(HTTP2Header("apns-topic", topic)) }
        return MockRequest(headers: headers + extra, body: body)
    }

    /// A JSON object body of exactly `size` bytes.
    static func body(size: Int) -> [UInt8] {
        Array(#"{"p":""#.utf8) + Array(repeating: UInt8(ascii: "x"), count: size - 8) + Array(#""}"#.utf8)
    }

    /// Validates `request` on a fresh token-based connection.
    func validateFresh(_ request: MockRequest) -> MockVerdict {
        var auth = ConnectionAuthState(clientCertificateBundleID: nil)
        return validator.validate(request, auth: &auth)
    }

    static func rejected(_ status: Int, _ reason: APNsReason, timestamp: Int64? = nil) -> MockVerdict {
        .reject(status: status, reason: reason, timestampMilliseconds: timestamp)
    }
}
