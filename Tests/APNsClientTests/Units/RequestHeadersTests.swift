import APNsCore
import Foundation
import HTTP2
import Testing
import TestSupport
@testable import APNsClient

@Suite("Request headers (no I/O)")
struct RequestHeadersTests {
    @Test("path and authorization are never indexed; apns-id too; the rest may be")
    func indexing() throws {
        let request = try NotificationRequest(
            deviceToken: DeviceToken(hex: String(repeating: "ab", count: 32)), topic: "com.example.app.voip", pushType: .voip,
            expiration: .immediately, collapseID: CollapseID("c"), apnsID: APNsID.random(), payload: Array("{}".utf8)
        )
        let signer = try ProviderTokenSigner(teamID: "TEAMID0001", keyID: "TESTKEY001", key: ES256PrivateKeyLoader.load("TESTKEY001"))
        var block = RequestHeaders.template(authority: "api.push.apple.com:443")
        RequestHeaders.write(for: request, token: try signer.token(issuedAt: Date()), into: &block)
        let headers = block.headers
        let never = Set(headers.filter(\.neverIndexed).map(\.name))
        #expect(never == [":path", "authorization", "apns-id"])
        #expect(headers.value(of: ":path") == request.path)
        #expect(headers.value(of: ":authority") == "api.push.apple.com:443")
        #expect(headers.value(of: "apns-push-type") == "voip")
        #expect(headers.value(of: "apns-priority") == "10")
        #expect(headers.value(of: "apns-expiration") == "0")
        #expect(headers.value(of: "apns-collapse-id") == "c")
        #expect(headers.prefix(4).allSatisfy { $0.name.hasPrefix(":") })
        #expect(block.problem == nil)
    }

    @Test("certificate requests carry no authorization, and optional headers are left out; the template stays, the rest is replaced")
    func minimal() throws {
        let first = try NotificationRequest(
            deviceToken: DeviceToken(hex: "abcd"), topic: "com.example.app", expiration: NotificationExpiration(epochSeconds: 1_767_225_600),
            collapseID: CollapseID("c"), apnsID: APNsID.random(), payload: Array("{}".utf8)
        )
        let second = try NotificationRequest(deviceToken: DeviceToken(hex: "ef01"), topic: "com.example.app", priority: .conservePower, payload: Array("{}".utf8))
        var block = RequestHeaders.template(authority: "h:1")
        RequestHeaders.write(for: first, token: nil, into: &block)
        #expect(block.headers.value(of: "apns-expiration") == "1767225600")
        RequestHeaders.write(for: second, token: nil, into: &block)
        let headers = block.headers
        #expect(headers.map(\.name) == [":method", ":scheme", ":authority", ":path", "apns-push-type", "apns-topic", "apns-priority", "content-type"])
        #expect(headers.value(of: ":method") == "POST")
        #expect(headers.value(of: ":path") == "/3/device/ef01")
        #expect(headers.value(of: "apns-priority") == "5")
        #expect(headers.value(of: "authorization") == nil)
        #expect(headers.value(of: "apns-id") == nil)
        #expect(headers.value(of: "apns-expiration") == nil)
    }

    @Test("GOAWAY debug data: the JSON reason, or a placeholder")
    func goAwayReason() {
        #expect(GoAwayReason.parse(Array(#"{"reason":"Shutdown"}"#.utf8)) == "Shutdown")
        #expect(GoAwayReason.parse([]) == "(none)")
        #expect(GoAwayReason.parse(Array("not json".utf8)) == "(unparsed)")
    }
}
