import Testing
@testable import AMQP

@Suite("Message properties: a value, though stored behind one shared reference")
struct AMQPPropertiesTests {
    static let original = AMQPProperties(
        contentType: "application/json", messageID: "job-1", persistent: true, headers: ["retry-attempt": .int(2)], type: "apns.job"
    )

    @Test("changing a copy, a field or a header, leaves the original as it was")
    func copiesAreIndependent() {
        let original = Self.original
        var copy = original
        copy.messageID = "job-2"
        copy.headers["retry-attempt"] = .int(3)
        copy.headers["dead-lettered-at"] = .int(1)
        #expect(original.messageID == "job-1")
        #expect(original.headers == ["retry-attempt": .int(2)])
        #expect(copy.messageID == "job-2")
        #expect(copy.headers == ["retry-attempt": .int(3), "dead-lettered-at": .int(1)])
        #expect(copy != original)
    }

    @Test("equal and hashed by their fields, whether or not they share storage")
    func equality() {
        var rebuilt = AMQPProperties(contentType: "application/json", messageID: "job-1", persistent: true, type: "apns.job")
        rebuilt.headers["retry-attempt"] = .int(2)
        #expect(rebuilt == Self.original)
        #expect(rebuilt.hashValue == Self.original.hashValue)
        rebuilt.persistent = false
        #expect(rebuilt != Self.original)
    }

    @Test("described by its fields, as the plain struct was")
    func description() {
        let text = String(describing: Self.original)
        #expect(text.hasPrefix("AMQPProperties("))
        #expect(text.contains("messageID: Optional(\"job-1\")"))
        #expect(text.contains("persistent: true"))
    }
}
