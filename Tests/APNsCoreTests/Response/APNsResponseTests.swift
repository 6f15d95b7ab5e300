import Testing
@testable import APNsCore

@Suite("Decoding APNs responses")
struct APNsResponseTests {
    @Test("200 is accepted, with apns-id and apns-unique-id")
    func accepted() {
        let response = APNsResponse(
            status: 200,
            headers: [("apns-id", "123e4567-e89b-42d3-a456-426614174000"), ("apns-unique-id", "a8f5f167-f44f-4964-a3a7-2d57f6ae2a1e")],
            body: []
        )
        #expect(response == .accepted(APNsAcceptance(apnsID: "123e4567-e89b-42d3-a456-426614174000", uniqueID: "a8f5f167-f44f-4964-a3a7-2d57f6ae2a1e")))
    }

    @Test("a 400 carries its reason and apns-id")
    func rejected() {
        let response = APNsResponse(status: 400, headers: [("APNS-ID", "x")], body: Array(#"{"reason":"BadDeviceToken"}"#.utf8))
        guard case .rejected(let rejection) = response else { Issue.record("not rejected"); return }
        #expect(rejection.reason == .badDeviceToken)
        #expect(rejection.status == 400)
        #expect(rejection.apnsID == "x")
        #expect(rejection.timestampMilliseconds == nil)
        #expect(rejection.disposition == .permanent)
    }

    @Test("a 410 carries its timestamp in milliseconds")
    func gone() {
        let response = APNsResponse(status: 410, headers: [], body: Array(#"{"reason":"Unregistered","timestamp":1700000000123}"#.utf8))
        guard case .rejected(let rejection) = response else { Issue.record("not rejected"); return }
        #expect(rejection.reason == .unregistered)
        #expect(rejection.timestampMilliseconds == 1_700_000_000_123)
    }

    @Test("a 429 with Retry-After keeps the delay")
    func retryAfter() {
        let response = APNsResponse(status: 429, headers: [("retry-after", " 7")], body: Array(#"{"reason":"TooManyRequests"}"#.utf8))
        guard case .rejected(let rejection) = response else { Issue.record("not rejected"); return }
        #expect(rejection.retryAfterSeconds == 7)
        #expect(rejection.disposition == .retryLater)
    }

    @Test("a body that is not the documented JSON still yields a classifiable rejection", arguments: [
        (502, "<html>bad gateway</html>", Disposition.retryLater),
        (400, "", Disposition.permanent),
        (403, "{\"reason\":42}", Disposition.credentialFailure),
        (418, "{\"reason\":\"Teapot\"}", Disposition.permanent),
    ])
    func malformedBody(status: Int, body: String, disposition: Disposition) {
        let response = APNsResponse(status: status, headers: [], body: Array(body.utf8))
        guard case .rejected(let rejection) = response else { Issue.record("not rejected"); return }
        #expect(rejection.status == status)
        #expect(rejection.disposition == disposition)
    }

    @Test("only a body that is wholly a JSON object is read: a cut one names no reason, a fractional timestamp is none")
    func partialBody() {
        let cut = APNsResponse(status: 400, headers: [], body: Array(#"{"reason":"BadDeviceToken","timestamp":17"#.utf8))
        guard case .rejected(let rejection) = cut else { Issue.record("not rejected"); return }
        #expect(rejection.reason.name == "")
        #expect(rejection.timestampMilliseconds == nil)
        let fractional = APNsResponse(status: 410, headers: [], body: Array(#"{"reason":"Unregistered","timestamp":1.5}"#.utf8))
        guard case .rejected(let gone) = fractional else { Issue.record("not rejected"); return }
        #expect(gone.reason == .unregistered)
        #expect(gone.timestampMilliseconds == nil)
    }
}
