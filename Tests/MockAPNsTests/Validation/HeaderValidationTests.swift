import APNsCore
import HTTP2
import Testing
@testable import MockAPNs

@Suite("apns-* headers")
struct HeaderValidationTests {
    let harness: ValidationHarness
    let bearer: String

    init() throws {
        harness = try ValidationHarness()
        bearer = try harness.bearer()
    }

    func verdict(pushType: String? = "alert", topic: String? = ValidationHarness.bundle1, _ extra: [HTTP2Header] = []) -> MockVerdict {
        harness.validateFresh(ValidationHarness.request(authorization: bearer, pushType: pushType, topic: topic, extra: extra))
    }

    @Test("without apns-push-type the request is an alert")
    func absentPushType() {
        #expect(verdict(pushType: nil) == .accept)
        #expect(verdict(pushType: nil, topic: ValidationHarness.bundle1 + ".voip") == ValidationHarness.rejected(400, .badTopic))
    }

    @Test("an unknown push type is 400 InvalidPushType", arguments: ["Alert", "hologram", "", "voip "])
    func unknownPushType(value: String) {
        #expect(verdict(pushType: value) == ValidationHarness.rejected(400, .invalidPushType))
    }

    @Test("every known push type is accepted with its topic on a token connection")
    func everyType() {
        for type in PushType.known {
            let priority = [HTTP2Header("apns-priority", type.defaultPriority.headerValue)]
            #expect(verdict(pushType: type.headerValue, topic: ValidationHarness.bundle1 + (type.topicSuffix ?? ""), priority) == .accept)
        }
    }

    @Test("without apns-topic a token request is 400 MissingTopic; an empty one too")
    func missingTopic() {
        #expect(verdict(topic: nil) == ValidationHarness.rejected(400, .missingTopic))
        #expect(verdict(topic: "") == ValidationHarness.rejected(400, .missingTopic))
    }

    @Test("a topic without its push type's suffix, or with another type's, is 400 BadTopic")
    func suffixMismatch() {
        #expect(verdict(pushType: "voip", topic: ValidationHarness.bundle1) == ValidationHarness.rejected(400, .badTopic))
        #expect(verdict(pushType: "alert", topic: ValidationHarness.bundle1 + ".voip") == ValidationHarness.rejected(400, .badTopic))
        #expect(verdict(pushType: "location", topic: ValidationHarness.bundle1 + ".voip") == ValidationHarness.rejected(400, .badTopic))
        #expect(verdict(pushType: "voip", topic: ".voip") == ValidationHarness.rejected(400, .badTopic))
    }

    @Test("another team's bundle, or one no team has, is 400 TopicDisallowed")
    func disallowedTopic() {
        #expect(verdict(topic: ValidationHarness.bundle2) == ValidationHarness.rejected(400, .topicDisallowed))
        #expect(verdict(pushType: "voip", topic: ValidationHarness.bundle2 + ".voip") == ValidationHarness.rejected(400, .topicDisallowed))
        #expect(verdict(topic: "com.example.nobody") == ValidationHarness.rejected(400, .topicDisallowed))
        #expect(verdict(topic: "com.example") == ValidationHarness.rejected(400, .topicDisallowed))
    }

    @Test("apns-priority must be 10, 5 or 1 and allowed for the push type", arguments: [
        ("alert", "10", true), ("alert", "5", true), ("alert", "1", false), ("background", "5", true), ("background", "10", false),
        ("background", "1", false), ("voip", "1", true), ("alert", "7", false), ("alert", "high", false), ("alert", "", false),
        ("alert", " 10", false),
    ])
    func priority(pushType: String, value: String, allowed: Bool) {
        let verdict = verdict(pushType: pushType, topic: ValidationHarness.bundle1 + (pushType == "voip" ? ".voip" : ""), [HTTP2Header("apns-priority", value)])
        #expect(verdict == (allowed ? .accept : ValidationHarness.rejected(400, .badPriority)))
    }

    @Test("a background push without apns-priority is accepted")
    func backgroundDefaultPriority() {
        #expect(verdict(pushType: "background") == .accept)
    }

    @Test("apns-expiration must be UNIX seconds", arguments: [("0", true), ("1800003600", true), ("-1", false), ("abc", false), ("", false), ("1.5", false)])
    func expiration(value: String, valid: Bool) {
        #expect(verdict([HTTP2Header("apns-expiration", value)]) == (valid ? .accept : ValidationHarness.rejected(400, .badExpirationDate)))
    }

    @Test("apns-collapse-id may have 64 bytes, not 65 and not none")
    func collapseID() {
        #expect(verdict([HTTP2Header("apns-collapse-id", String(repeating: "c", count: 64))]) == .accept)
        #expect(verdict([HTTP2Header("apns-collapse-id", String(repeating: "é", count: 32))]) == .accept)
        #expect(verdict([HTTP2Header("apns-collapse-id", String(repeating: "c", count: 65))]) == ValidationHarness.rejected(400, .badCollapseID))
        #expect(verdict([HTTP2Header("apns-collapse-id", String(repeating: "é", count: 33))]) == ValidationHarness.rejected(400, .badCollapseID))
        #expect(verdict([HTTP2Header("apns-collapse-id", "")]) == ValidationHarness.rejected(400, .badCollapseID))
    }

    @Test("apns-id must be a canonical lowercase UUID", arguments: [
        ("123e4567-e89b-42d3-a456-426614174000", true), ("123E4567-E89B-42D3-A456-426614174000", false),
        ("123e4567e89b42d3a456426614174000", false), ("not-a-uuid", false), ("", false),
    ])
    func apnsID(value: String, valid: Bool) {
        #expect(verdict([HTTP2Header("apns-id", value)]) == (valid ? .accept : ValidationHarness.rejected(400, .badMessageID)))
    }
}
