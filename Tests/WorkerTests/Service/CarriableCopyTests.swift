import AMQP
import Testing
@testable import Worker

@Suite("Retry and dead-letter copies carry what AMQP can")
struct CarriableCopyTests {
    @Test("a copy AMQP can carry is unchanged, but for the routing headers RabbitMQ would obey")
    func unchanged() {
        let properties = AMQPProperties(messageID: "m-1", headers: ["trace": "t-1", "CC": .array(["elsewhere"]), "BCC": .array(["hidden"]), "retry-attempt": .int(2)])
        let copy = OutgoingMessages.carriable(AMQPMessage(body: [1, 2, 3], properties: properties))
        #expect(copy.body == [1, 2, 3])
        #expect(copy.properties.messageID == "m-1")
        #expect(copy.properties.headers == ["trace": "t-1", "retry-attempt": .int(2)])
    }

    @Test("what cannot travel is dropped and named; the body and the worker's own headers stay")
    func dropped() throws {
        let longKey = String(repeating: "k", count: 300)
        var properties = AMQPProperties(messageID: String(repeating: "€", count: 100), correlationID: "ok", headers: [
            longKey: true, "blob": .string(String(repeating: "b", count: 140_000)), "small": "s",
            "last-error": "InvalidJSON: …", "retry-attempt": .int(1), "published-at": .int(1_700_000_000_000),
        ])
        properties.type = String(repeating: "t", count: 256)
        let body = [UInt8](repeating: 7, count: 5_000)
        let copy = OutgoingMessages.carriable(AMQPMessage(body: body, properties: properties))
        #expect(copy.encodingProblems().isEmpty)
        #expect(copy.body == body)
        #expect(copy.properties.messageID == nil && copy.properties.type == nil)
        #expect(copy.properties.correlationID == "ok")
        #expect(copy.properties.headers["small"] == "s")
        for own in ["last-error", "retry-attempt", "published-at"] { #expect(copy.properties.headers[own] != nil, "\(own)") }
        let dropped = try #require(copy.properties.headers[OutgoingMessages.droppedHeader])
        guard case .string(let names) = dropped else { Issue.record("dropped-properties is not a string"); return }
        for name in ["message_id", "type", "header blob", "header kkkk"] { #expect(names.contains(name), "\(names)") }
    }
}
