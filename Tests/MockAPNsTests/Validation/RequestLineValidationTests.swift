import APNsCore
import HTTP2
import Testing
@testable import MockAPNs

@Suite("Method, path and duplicate headers")
struct RequestLineValidationTests {
    let harness: ValidationHarness
    let bearer: String

    init() throws {
        harness = try ValidationHarness()
        bearer = try harness.bearer()
    }

    @Test("a well-formed request with a valid token is accepted")
    func accepted() {
        #expect(harness.validateFresh(ValidationHarness.request(authorization: bearer)) == .accept)
    }

    @Test("anything but POST is 405 MethodNotAllowed, before the path is looked at", arguments: ["GET", "PUT", "DELETE", "post"])
    func method(method: String) {
        let verdict = harness.validateFresh(ValidationHarness.request(method: method, path: "/nowhere", authorization: bearer))
        #expect(verdict == ValidationHarness.rejected(405, .methodNotAllowed))
    }

    @Test("/3/device/ without a token is 400 MissingDeviceToken")
    func missingDeviceToken() {
        let verdict = harness.validateFresh(ValidationHarness.request(path: "/3/device/", authorization: bearer))
        #expect(verdict == ValidationHarness.rejected(400, .missingDeviceToken))
    }

    @Test("a token that is not even-length hex is 400 BadDeviceToken", arguments: ["abc", "xyz0", "0123 4567", "01/23", "0g"])
    func badDeviceToken(token: String) {
        let verdict = harness.validateFresh(ValidationHarness.request(path: "/3/device/\(token)", authorization: bearer))
        #expect(verdict == ValidationHarness.rejected(400, .badDeviceToken))
    }

    @Test("upper-case hex is a valid token")
    func upperCaseToken() {
        let path = "/3/device/\(ValidationHarness.deviceHex.uppercased())"
        #expect(harness.validateFresh(ValidationHarness.request(path: path, authorization: bearer)) == .accept)
    }

    @Test("any other path, or none, is 404 BadPath", arguments: [
        "/", "/3/device", "/3/devices/0123", "/2/device/0123", "/4/broadcasts/apps/com.example.one", "3/device/0123",
    ])
    func badPath(path: String) {
        #expect(harness.validateFresh(ValidationHarness.request(path: path, authorization: bearer)) == ValidationHarness.rejected(404, .badPath))
    }

    @Test("a request without :path is 404 BadPath")
    func noPath() {
        #expect(harness.validateFresh(ValidationHarness.request(path: nil, authorization: bearer)) == ValidationHarness.rejected(404, .badPath))
    }

    @Test("a repeated apns-* or authorization header is 400 DuplicateHeaders", arguments: [
        "apns-topic", "apns-push-type", "apns-priority", "apns-expiration", "apns-collapse-id", "apns-id", "apns-something-new",
    ])
    func duplicateHeaders(name: String) {
        let values = ["apns-topic": ValidationHarness.bundle1, "apns-push-type": "alert", "apns-priority": "10", "apns-expiration": "0",
            "apns-id": "123e4567-e89b-42d3-a456-426614174000"]
        let value = values[name] ?? "x"
        let once = ValidationHarness.request(authorization: bearer, pushType: nil, topic: nil, extra: [HTTP2Header(name, value)])
        let twice = ValidationHarness.request(authorization: bearer, pushType: nil, topic: nil, extra: [HTTP2Header(name, value), HTTP2Header(name, value)])
        let topic = name == "apns-topic" ? [] : [HTTP2Header("apns-topic", ValidationHarness.bundle1)]
        #expect(harness.validateFresh(MockRequest(headers: once.headers + topic, body: once.body)) == .accept)
        #expect(harness.validateFresh(MockRequest(headers: twice.headers + topic, body: twice.body)) == ValidationHarness.rejected(400, .duplicateHeaders))
    }

    @Test("two authorization headers are DuplicateHeaders, checked before authentication")
    func duplicateAuthorization() throws {
        let other = try harness.bearer(harness.signer2)
        let request = ValidationHarness.request(authorization: bearer, extra: [HTTP2Header("authorization", other)])
        #expect(harness.validateFresh(request) == ValidationHarness.rejected(400, .duplicateHeaders))
        let unauthenticated = ValidationHarness.request(authorization: nil, extra: [HTTP2Header("apns-topic", "again")])
        #expect(harness.validateFresh(unauthenticated) == ValidationHarness.rejected(400, .duplicateHeaders))
    }

    @Test("repeated headers outside apns-* and authorization are allowed")
    func otherDuplicates() {
        let request = ValidationHarness.request(authorization: bearer, extra: [HTTP2Header("user-agent", "a"), HTTP2Header("user-agent", "b")])
        #expect(harness.validateFresh(request) == .accept)
    }

    @Test("a path problem is reported before duplicate headers")
    func pathBeforeDuplicates() {
        let request = ValidationHarness.request(path: "/3/device/", authorization: bearer, extra: [HTTP2Header("apns-topic", "x")])
        #expect(harness.validateFresh(request) == ValidationHarness.rejected(400, .missingDeviceToken))
    }
}
