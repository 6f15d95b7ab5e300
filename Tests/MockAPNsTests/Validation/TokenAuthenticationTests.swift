import APNsCore
import Foundation
import Testing
@testable import MockAPNs

@Suite("Provider token authentication")
struct TokenAuthenticationTests {
    let harness: ValidationHarness

    init() throws {
        harness = try ValidationHarness()
    }

    func verdict(_ authorization: String?) -> MockVerdict {
        harness.validateFresh(ValidationHarness.request(authorization: authorization))
    }

    static let invalid = ValidationHarness.rejected(403, .invalidProviderToken)

    @Test("no authorization header and no certificate is 403 MissingProviderToken")
    func missing() {
        #expect(verdict(nil) == ValidationHarness.rejected(403, .missingProviderToken))
    }

    @Test("a hand-made token with every part right is accepted, so the crafted failures below fail for their one defect")
    func craftedControl() throws {
        let bearer = try harness.craftedBearer(header: #"{"alg":"ES256","kid":"TESTKEY001"}"#, claims: harness.claims())
        #expect(verdict(bearer) == .accept)
        let spaced = try harness.craftedBearer(header: #" { "kid" : "TESTKEY001", "alg" : "ES256", "typ": "JWT" } "#, claims: harness.claims())
        #expect(verdict(spaced) == .accept)
    }

    @Test("the bearer scheme is matched without regard to case")
    func schemeCase() throws {
        let jwt = try harness.bearer().dropFirst("bearer ".count)
        #expect(verdict("Bearer \(jwt)") == .accept)
        #expect(verdict("BEARER \(jwt)") == .accept)
    }

    @Test("a malformed authorization value is 403 InvalidProviderToken", arguments: [
        "", "bearer", "bearer ", "Basic dXNlcjpwYXNz", "bearer abc", "bearer a.b", "bearer a.b.c", "bearer ..", "bearer a.b.c.d",
    ])
    func malformed(value: String) {
        #expect(verdict(value) == Self.invalid)
    }

    @Test("a JWT with a part removed or a fourth part added is refused")
    func wrongPartCount() throws {
        let jwt = String(try harness.bearer().dropFirst("bearer ".count))
        let parts = jwt.split(separator: ".")
        #expect(verdict("bearer \(parts[0]).\(parts[1])") == Self.invalid)
        #expect(verdict("bearer \(jwt).\(parts[2])") == Self.invalid)
        #expect(verdict("bearer \(jwt)=") == Self.invalid)
    }

    @Test("alg other than ES256 is refused, even with a good signature", arguments: ["HS256", "RS256", "none", "es256"])
    func algorithm(alg: String) throws {
        let bearer = try harness.craftedBearer(header: #"{"alg":"\#(alg)","kid":"TESTKEY001"}"#, claims: harness.claims())
        #expect(verdict(bearer) == Self.invalid)
    }

    @Test("a header without alg or kid is refused")
    func headerFields() throws {
        #expect(verdict(try harness.craftedBearer(header: #"{"kid":"TESTKEY001"}"#, claims: harness.claims())) == Self.invalid)
        #expect(verdict(try harness.craftedBearer(header: #"{"alg":"ES256"}"#, claims: harness.claims())) == Self.invalid)
        #expect(verdict(try harness.craftedBearer(header: #"{"alg":"ES256","kid":"TESTKEY001","kid":"TESTKEY001"}"#, claims: harness.claims())) == Self.invalid)
        #expect(verdict(try harness.craftedBearer(header: #"["ES256","TESTKEY001"]"#, claims: harness.claims())) == Self.invalid)
    }

    @Test("a kid the mock has no key for is refused")
    func unknownKey() throws {
        let stranger = try ProviderTokenSigner(teamID: ValidationHarness.team1, keyID: "UNKNOWNKEY", key: harness.key1)
        #expect(verdict(try harness.bearer(stranger)) == Self.invalid)
    }

    @Test("an iss other than the key's team is refused")
    func wrongIssuer() throws {
        let impostor = try ProviderTokenSigner(teamID: ValidationHarness.team2, keyID: "TESTKEY001", key: harness.key1)
        #expect(verdict(try harness.bearer(impostor)) == Self.invalid)
        #expect(verdict(try harness.craftedBearer(header: #"{"alg":"ES256","kid":"TESTKEY001"}"#, claims: #"{"iat":1800000000}"#)) == Self.invalid)
    }

    @Test("an iat that is not an integer JSON number is refused (a string iat was APNSwift's bug)", arguments: [
        #""1800000000""#, "1800000000.0", "1.8e9", "true", "null", "[1800000000]",
    ])
    func nonIntegerIssuedAt(iat: String) throws {
        let bearer = try harness.craftedBearer(header: #"{"alg":"ES256","kid":"TESTKEY001"}"#, claims: #"{"iss":"TEAMID0001","iat":\#(iat)}"#)
        #expect(verdict(bearer) == Self.invalid)
    }

    @Test("a signature by another key, or over other claims, is refused")
    func badSignature() throws {
        let otherKey = try harness.craftedBearer(header: #"{"alg":"ES256","kid":"TESTKEY001"}"#, claims: harness.claims(), key: harness.key2)
        #expect(verdict(otherKey) == Self.invalid)
        let good = try harness.bearer().split(separator: ".")
        let other = try harness.bearer(issuedAfter: -1).split(separator: ".")
        #expect(verdict("\(good[0]).\(other[1]).\(good[2])") == Self.invalid)
        let flipped = good[2].first == "A" ? "B" + good[2].dropFirst() : "A" + good[2].dropFirst()
        #expect(verdict("\(good[0]).\(good[1]).\(flipped)") == Self.invalid)
    }

    @Test("a token older than an hour is 403 ExpiredProviderToken; exactly an hour old is still accepted")
    func expired() throws {
        #expect(verdict(try harness.bearer(issuedAfter: -3601)) == ValidationHarness.rejected(403, .expiredProviderToken))
        #expect(verdict(try harness.bearer(issuedAfter: -3600)) == .accept)
    }

    @Test("a token issued more than five minutes in the future is refused; less is clock skew")
    func future() throws {
        #expect(verdict(try harness.bearer(issuedAfter: 301)) == Self.invalid)
        #expect(verdict(try harness.bearer(issuedAfter: 299)) == .accept)
    }

    @Test("tokens of both teams work on connections of their own")
    func bothTeams() throws {
        let request = ValidationHarness.request(authorization: try harness.bearer(harness.signer2), topic: ValidationHarness.bundle2)
        #expect(harness.validateFresh(request) == .accept)
        #expect(verdict(try harness.bearer(harness.signer3)) == .accept)
    }
}
