import Testing
@testable import AMQP

@Suite("Content assembly (no I/O)")
struct ContentAssemblerTests {
    let deliver = ContentAssembler.Method.deliver(DeliverInfo(consumerTag: "c", deliveryTag: 7, redelivered: false, exchange: "x", routingKey: "k"))

    @Test("method, header and body fragments make one message")
    func fragments() throws {
        var assembler = ContentAssembler()
        try assembler.begin(deliver)
        #expect(try assembler.header(AMQPProperties(contentType: "text/plain"), bodySize: 5) == nil)
        #expect(try assembler.body(Array("hel".utf8)) == nil)
        let content = try assembler.body(Array("lo".utf8))
        #expect(content?.method == deliver)
        #expect(content?.message == AMQPMessage(body: Array("hello".utf8), properties: AMQPProperties(contentType: "text/plain")))
        #expect(!assembler.isAssembling)
    }

    @Test("an empty body completes with the header")
    func emptyBody() throws {
        var assembler = ContentAssembler()
        try assembler.begin(.returned(ReturnInfo(replyCode: 312, replyText: "NO_ROUTE", exchange: "x", routingKey: "k")))
        #expect(try assembler.header(AMQPProperties(), bodySize: 0)?.message.body == [])
    }

    @Test("frames out of order are violations")
    func violations() throws {
        var assembler = ContentAssembler()
        #expect(throws: ContentAssembler.Violation.self) { try assembler.body([1]) }
        #expect(throws: ContentAssembler.Violation.self) { try assembler.header(AMQPProperties(), bodySize: 1) }
        try assembler.begin(deliver)
        #expect(throws: ContentAssembler.Violation.self) { try assembler.begin(deliver) }
        _ = try assembler.header(AMQPProperties(), bodySize: 1)
        #expect(throws: ContentAssembler.Violation.self) { try assembler.body([1, 2]) }
    }
}
