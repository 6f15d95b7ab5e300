import NIOCore
import Testing
@testable import AMQP

@Suite("Content assembly (no I/O)")
struct ContentAssemblerTests {
    let deliver = ContentAssembler.Method.deliver(DeliverInfo(consumerTag: "c", deliveryTag: 7, redelivered: false, exchange: "x", routingKey: "k"))

    static func header(_ properties: AMQPProperties = AMQPProperties(), bodySize: UInt64) -> ContentHeader {
        ContentHeader(bodySize: bodySize, properties: properties)
    }

    @Test("method, header and body fragments make one message")
    func fragments() throws {
        var assembler = ContentAssembler()
        try assembler.begin(deliver)
        #expect(try assembler.header(Self.header(AMQPProperties(contentType: "text/plain"), bodySize: 5)) == nil)
        #expect(try assembler.body(ByteBuffer(string: "hel")) == nil)
        let content = try assembler.body(ByteBuffer(string: "lo"))
        #expect(content?.method == deliver)
        #expect(content?.properties == AMQPProperties(contentType: "text/plain"))
        #expect(content?.body == ByteBuffer(string: "hello"))
        #expect(!assembler.isAssembling)
    }

    @Test("a body in one frame is that frame's bytes, not a copy")
    func oneFrameIsASlice() throws {
        var assembler = ContentAssembler()
        try assembler.begin(deliver)
        _ = try assembler.header(Self.header(bodySize: 5))
        let read = ByteBuffer(string: "..hello..")
        let fragment = read.getSlice(at: 2, length: 5)!
        let content = try #require(try assembler.body(fragment))
        let shared = content.body.withUnsafeReadableBytes { body in read.withUnsafeReadableBytes { $0.baseAddress! + 2 == body.baseAddress! } }
        #expect(shared, "the body points into the buffer that was read")
    }

    @Test("an empty body completes with the header")
    func emptyBody() throws {
        var assembler = ContentAssembler()
        try assembler.begin(.returned(ReturnInfo(replyCode: 312, replyText: "NO_ROUTE", exchange: "x", routingKey: "k")))
        #expect(try assembler.header(Self.header(bodySize: 0))?.body.readableBytes == 0)
    }

    @Test("frames out of order are violations")
    func violations() throws {
        var assembler = ContentAssembler()
        #expect(throws: ContentAssembler.Violation.self) { try assembler.body(ByteBuffer(bytes: [1])) }
        #expect(throws: ContentAssembler.Violation.self) { try assembler.header(Self.header(bodySize: 1)) }
        try assembler.begin(deliver)
        #expect(throws: ContentAssembler.Violation.self) { try assembler.begin(deliver) }
        _ = try assembler.header(Self.header(bodySize: 1))
        #expect(throws: ContentAssembler.Violation.self) { try assembler.body(ByteBuffer(bytes: [1, 2])) }
    }

    @Test("a header announcing more than a message can hold is a violation, not a reservation (found by the fuzzer)")
    func hugeAnnouncement() throws {
        var assembler = ContentAssembler()
        try assembler.begin(deliver)
        #expect(throws: ContentAssembler.Violation.self) { try assembler.header(Self.header(bodySize: .max)) }
        var large = ContentAssembler()
        try large.begin(deliver)
        #expect(try large.header(Self.header(bodySize: ContentAssembler.maximumBodySize)) == nil, "RabbitMQ's largest message is fine")
        #expect(try large.body(ByteBuffer(bytes: [1])) == nil)
    }
}
