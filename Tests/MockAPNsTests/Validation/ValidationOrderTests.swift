import APNsCore
import HTTP2
import Testing
@testable import MockAPNs

@Suite("Order of concerns")
struct ValidationOrderTests {
    @Test("with everything wrong, fixing one problem at a time reveals the next in APNs' order")
    func order() throws {
        let harness = try ValidationHarness(registry: DeviceRegistry())
        let bearer = try harness.bearer()
        var method = "GET"
        var path = "/3/device/"
        var duplicate = [HTTP2Header("apns-id", "x"), HTTP2Header("apns-id", "y")]
        var authorization: String? = nil
        var pushType = "hologram"
        var topic = ValidationHarness.bundle2
        var priority = HTTP2Header("apns-priority", "7")
        var expiration = HTTP2Header("apns-expiration", "soon")
        var collapse = HTTP2Header("apns-collapse-id", String(repeating: "c", count: 65))
        var apnsID = HTTP2Header("apns-id", "NOT-A-UUID")
        var body: [UInt8] = []

        func verdict() -> MockVerdict {
            let request = ValidationHarness.request(
                method: method, path: path, authorization: authorization, pushType: pushType, topic: topic,
                extra: [priority, expiration, collapse] + (duplicate.isEmpty ? [apnsID] : duplicate), body: body
            )
            return harness.validateFresh(request)
        }

        let steps: [(APNsReason, () -> Void)] = [
            (.methodNotAllowed, { method = "POST" }),
            (.missingDeviceToken, { path = "/3/device/dead" + ValidationHarness.deviceHex }),
            (.duplicateHeaders, { duplicate = [] }),
            (.missingProviderToken, { authorization = bearer }),
            (.invalidPushType, { pushType = "alert" }),
            (.topicDisallowed, { topic = ValidationHarness.bundle1 }),
            (.badPriority, { priority = HTTP2Header("apns-priority", "5") }),
            (.badExpirationDate, { expiration = HTTP2Header("apns-expiration", "0") }),
            (.badCollapseID, { collapse = HTTP2Header("apns-collapse-id", "c") }),
            (.badMessageID, { apnsID = HTTP2Header("apns-id", "123e4567-e89b-42d3-a456-426614174000") }),
            (.payloadEmpty, { body = ValidationHarness.alertBody }),
            (.unregistered, { path = "/3/device/" + ValidationHarness.deviceHex }),
        ]
        for (reason, fix) in steps {
            #expect(verdict().reason == reason)
            fix()
        }
        #expect(verdict() == .accept)
    }

    @Test("a verdict reports its status and reason")
    func verdictAccessors() {
        #expect(MockVerdict.accept.status == 200)
        #expect(MockVerdict.accept.reason == nil)
        let rejected = MockVerdict.reject(status: 410, reason: .unregistered, timestampMilliseconds: 5)
        #expect(rejected.status == 410)
        #expect(rejected.reason == .unregistered)
    }
}
