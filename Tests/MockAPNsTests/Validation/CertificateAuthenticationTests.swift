import APNsCore
import Testing
@testable import MockAPNs

@Suite("Client-certificate authentication")
struct CertificateAuthenticationTests {
    let harness: ValidationHarness

    init() throws {
        harness = try ValidationHarness()
    }

    func verdict(_ request: MockRequest) -> MockVerdict {
        var auth = ConnectionAuthState(clientCertificateBundleID: ValidationHarness.bundle1)
        return harness.validator.validate(request, auth: &auth)
    }

    @Test("a certificate needs no authorization header, and any given is ignored")
    func noToken() {
        #expect(verdict(ValidationHarness.request(authorization: nil)) == .accept)
        #expect(verdict(ValidationHarness.request(authorization: "bearer not.a.token")) == .accept)
        #expect(verdict(ValidationHarness.request(authorization: "Basic abc")) == .accept)
    }

    @Test("without apns-topic the certificate's topic for the push type is used")
    func defaultTopic() {
        #expect(verdict(ValidationHarness.request(authorization: nil, topic: nil)) == .accept)
        #expect(verdict(ValidationHarness.request(authorization: nil, pushType: "voip", topic: nil)) == .accept)
        #expect(verdict(ValidationHarness.request(authorization: nil, pushType: nil, topic: nil)) == .accept)
    }

    @Test("topics of the certificate's bundle with a push type's suffix are accepted")
    func suffixedTopics() {
        let voip = ValidationHarness.request(authorization: nil, pushType: "voip", topic: ValidationHarness.bundle1 + ".voip")
        #expect(verdict(voip) == .accept)
        let complication = ValidationHarness.request(authorization: nil, pushType: "complication", topic: ValidationHarness.bundle1 + ".complication")
        #expect(verdict(complication) == .accept)
    }

    @Test("another bundle's topic is 400 TopicDisallowed")
    func otherBundle() {
        #expect(verdict(ValidationHarness.request(authorization: nil, topic: ValidationHarness.bundle2)) == ValidationHarness.rejected(400, .topicDisallowed))
    }

    @Test("push types that need token authentication are 400 TopicDisallowed", arguments: [
        ("location", ".location-query"), ("liveactivity", ".push-type.liveactivity"),
    ])
    func tokenOnlyTypes(pushType: String, suffix: String) {
        let request = ValidationHarness.request(authorization: nil, pushType: pushType, topic: ValidationHarness.bundle1 + suffix)
        #expect(verdict(request) == ValidationHarness.rejected(400, .topicDisallowed))
        #expect(verdict(ValidationHarness.request(authorization: nil, pushType: pushType, topic: nil)) == ValidationHarness.rejected(400, .topicDisallowed))
    }

    @Test("an accepted push marks the connection but binds no team")
    func noTeam() {
        var auth = ConnectionAuthState(clientCertificateBundleID: ValidationHarness.bundle1)
        #expect(harness.validator.validate(ValidationHarness.request(authorization: nil), auth: &auth) == .accept)
        #expect(auth.hasAcceptedPush)
        #expect(auth.boundTeamID == nil)
        #expect(auth.verifiedSignatureCount == 0)
    }

    @Test("no certificate means token authentication")
    func noCertificate() {
        var auth = ConnectionAuthState(clientCertificate: nil)
        #expect(auth.clientCertificateBundleID == nil)
        #expect(harness.validator.validate(ValidationHarness.request(authorization: nil), auth: &auth) == ValidationHarness.rejected(403, .missingProviderToken))
    }
}
