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
        var headers: [HTTP2Header] = []
        RequestHeaders.write(for: request, authority: "api.push.apple.com:443", token: try signer.token(issuedAt: Date()), into: &headers)
        let never = Set(headers.filter(\.neverIndexed).map(\.name))
        #expect(never == [":path", "authorization", "apns-id"])
        #expect(headers.value(of: ":path") == request.path)
        #expect(headers.value(of: "apns-push-type") == "voip")
        #expect(headers.value(of: "apns-priority") == "10")
        #expect(headers.value(of: "apns-expiration") == "0")
        #expect(headers.value(of: "apns-collapse-id") == "c")
        #expect(headers.prefix(4).allSatisfy { $0.name.hasPrefix(":") })
    }

    @Test("certificate requests carry no authorization, and optional headers are left out")
    func minimal() throws {
        let request = try NotificationRequest(deviceToken: DeviceToken(hex: "abcd"), topic: "com.example.app", payload: Array("{}".utf8))
        var headers = [HTTP2Header(":method", "GET")]
        RequestHeaders.write(for: request, authority: "h:1", token: nil, into: &headers)
        #expect(headers.value(of: ":method") == "POST", "the block replaces what the array held")
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
