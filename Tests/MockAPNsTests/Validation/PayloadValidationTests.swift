import APNsCore
import Testing
@testable import MockAPNs

@Suite("Payload")
struct PayloadValidationTests {
    let harness: ValidationHarness
    let bearer: String

    init() throws {
        harness = try ValidationHarness()
        bearer = try harness.bearer()
    }

    func verdict(_ body: [UInt8], pushType: String = "alert") -> MockVerdict {
        let topic = ValidationHarness.bundle1 + (pushType == "voip" ? ".voip" : "")
        return harness.validateFresh(ValidationHarness.request(authorization: bearer, pushType: pushType, topic: topic, body: body))
    }

    @Test("an empty body is 400 PayloadEmpty")
    func empty() {
        #expect(verdict([]) == ValidationHarness.rejected(400, .payloadEmpty))
    }

    @Test("4096 bytes is the limit for an alert; one more is 413 PayloadTooLarge")
    func alertLimit() {
        #expect(ValidationHarness.body(size: 4096).count == 4096)
        #expect(verdict(ValidationHarness.body(size: 4096)) == .accept)
        #expect(verdict(ValidationHarness.body(size: 4097)) == ValidationHarness.rejected(413, .payloadTooLarge))
        #expect(verdict(ValidationHarness.body(size: 5120)) == ValidationHarness.rejected(413, .payloadTooLarge))
    }

    @Test("5120 bytes is the limit for VoIP; one more is 413 PayloadTooLarge")
    func voipLimit() {
        #expect(verdict(ValidationHarness.body(size: 5120), pushType: "voip") == .accept)
        #expect(verdict(ValidationHarness.body(size: 5121), pushType: "voip") == ValidationHarness.rejected(413, .payloadTooLarge))
    }

    @Test("the size is checked before the syntax")
    func sizeBeforeSyntax() {
        #expect(verdict(Array(repeating: UInt8(ascii: "x"), count: 4097)) == ValidationHarness.rejected(413, .payloadTooLarge))
    }

    @Test("a body that is not one JSON object is 400 BadRequestPayload", arguments: [
        "hello", "[1,2]", #""aps""#, "42", "null", "{", "{}x", "{}{}", #"{"aps":}"#, #"{"aps":{"alert":"hi"}"#, #"{'aps':1}"#,
        #"{"a":1,}"#, "\u{FEFF}{}",
    ])
    func notAnObject(body: String) {
        #expect(verdict(Array(body.utf8)) == ValidationHarness.rejected(400, .badRequestPayload))
    }

    @Test("any JSON object is accepted, whitespace around it included", arguments: [
        "{}", " {\n} ", #"{"aps":{"content-available":1},"custom":[1,-2.5e3,true,false,null,"\u00e9\n"]}"#,
    ])
    func objects(body: String) {
        #expect(verdict(Array(body.utf8)) == .accept)
    }
}
