import APNsCore
import Foundation
import Testing
@testable import MockAPNs

@Suite("Provider tokens over a connection's life: expiry, changes, team binding, verification cache")
struct TokenLifecycleTests {
    static let minute: TimeInterval = 60
    let harness: ValidationHarness
    var auth = ConnectionAuthState(clientCertificateBundleID: nil)

    init() throws {
        harness = try ValidationHarness()
    }

    mutating func send(_ authorization: String, topic: String = ValidationHarness.bundle1) -> MockVerdict {
        harness.validator.validate(ValidationHarness.request(authorization: authorization, topic: topic), auth: &auth)
    }

    @Test("a connection that keeps its token past 60 minutes gets ExpiredProviderToken")
    mutating func keptPastTheHour() throws {
        let token = try harness.bearer()
        #expect(send(token) == .accept)
        harness.clock.advance(by: 60 * Self.minute)
        #expect(send(token) == .accept)
        harness.clock.advance(by: 1)
        #expect(send(token) == ValidationHarness.rejected(403, .expiredProviderToken))
    }

    @Test("changing the token 19 minutes after installing it is 429 TooManyProviderTokenUpdates; 21 minutes is fine")
    mutating func changeTooSoon() throws {
        let first = try harness.bearer()
        #expect(send(first) == .accept)
        harness.clock.advance(by: 19 * Self.minute)
        let second = try harness.bearer()
        #expect(send(second) == ValidationHarness.rejected(429, .tooManyProviderTokenUpdates))
        // The refused token was not installed: the old one is still the connection's token.
        #expect(send(first) == .accept)
        harness.clock.advance(by: 2 * Self.minute)
        #expect(send(second) == .accept)
        // Going back to the first token is another change, and too soon after the last one.
        #expect(send(first) == ValidationHarness.rejected(429, .tooManyProviderTokenUpdates))
        harness.clock.advance(by: 20 * Self.minute)
        #expect(send(first) == .accept)
    }

    @Test("the first token on a connection is an installation, however old it is (within the hour)")
    mutating func firstTokenIsInstallation() throws {
        #expect(send(try harness.bearer(issuedAfter: -50 * Self.minute)) == .accept)
    }

    @Test("a token refused for expiry is not installed, so the next token is still the first")
    mutating func refusedTokenNotInstalled() throws {
        #expect(send(try harness.bearer(issuedAfter: -61 * Self.minute)) == ValidationHarness.rejected(403, .expiredProviderToken))
        #expect(send(try harness.bearer()) == .accept)
    }

    @Test("a token that authenticated is installed even if the push failed for another reason")
    mutating func installedDespiteLaterFailure() throws {
        let first = try harness.bearer()
        #expect(send(first, topic: "com.example.unknown") == ValidationHarness.rejected(400, .topicDisallowed))
        #expect(auth.boundTeamID == nil && !auth.hasAcceptedPush)
        harness.clock.advance(by: 5 * Self.minute)
        #expect(send(try harness.bearer()) == ValidationHarness.rejected(429, .tooManyProviderTokenUpdates))
    }

    @Test("the team is bound at the first accepted push; another team's token is then 403 InvalidProviderToken")
    mutating func teamBinding() throws {
        #expect(auth.boundTeamID == nil)
        #expect(send(try harness.bearer()) == .accept)
        #expect(auth.boundTeamID == ValidationHarness.team1)
        #expect(auth.hasAcceptedPush)
        let otherTeam = try harness.bearer(harness.signer2)
        #expect(send(otherTeam, topic: ValidationHarness.bundle2) == ValidationHarness.rejected(403, .invalidProviderToken))
        harness.clock.advance(by: 30 * Self.minute)
        #expect(send(otherTeam, topic: ValidationHarness.bundle2) == ValidationHarness.rejected(403, .invalidProviderToken))
        #expect(auth.boundTeamID == ValidationHarness.team1)
    }

    @Test("another key of the bound team is allowed (keys are team-scoped), subject to the change interval")
    mutating func sameTeamOtherKey() throws {
        #expect(send(try harness.bearer()) == .accept)
        harness.clock.advance(by: 21 * Self.minute)
        #expect(send(try harness.bearer(harness.signer3)) == .accept)
        #expect(auth.boundTeamID == ValidationHarness.team1)
    }

    @Test("a steady token is verified once per connection, not once per request")
    mutating func verifiedOnce() throws {
        let token = try harness.bearer()
        for _ in 0..<100 { #expect(send(token) == .accept) }
        #expect(auth.verifiedSignatureCount == 1)
        var other = ConnectionAuthState(clientCertificateBundleID: nil)
        _ = harness.validator.validate(ValidationHarness.request(authorization: token), auth: &other)
        #expect(other.verifiedSignatureCount == 1)
    }

    @Test("a token refused with 429 is remembered as verified, so retrying it does not verify again")
    mutating func refusedChangeStaysVerified() throws {
        #expect(send(try harness.bearer()) == .accept)
        let second = try harness.bearer(issuedAfter: -1)
        for _ in 0..<5 { #expect(send(second) == ValidationHarness.rejected(429, .tooManyProviderTokenUpdates)) }
        #expect(auth.verifiedSignatureCount == 2)
    }

    @Test("an invalid token is verified again each time: failures are not cached")
    mutating func failuresNotCached() throws {
        let stranger = try ProviderTokenSigner(teamID: ValidationHarness.team1, keyID: "UNKNOWNKEY", key: harness.key1)
        let bad = try harness.bearer(stranger)
        for _ in 0..<3 { #expect(send(bad) == ValidationHarness.rejected(403, .invalidProviderToken)) }
        #expect(auth.verifiedSignatureCount == 3)
    }

    @Test("the cache is bounded: many distinct tokens keep only the last few")
    mutating func cacheBounded() throws {
        let tokens = try (1...10).map { try harness.bearer(issuedAfter: -TimeInterval($0)) }
        for token in tokens { _ = send(token) }
        #expect(auth.verifiedSignatureCount == 10)
        // The installed token and the last ones are still known; an early refused one was evicted.
        _ = send(tokens[0])
        _ = send(tokens[9])
        #expect(auth.verifiedSignatureCount == 10)
        _ = send(tokens[1])
        #expect(auth.verifiedSignatureCount == 11)
    }
}
