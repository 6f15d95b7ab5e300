import NIOCore
import Testing
@testable import AMQP

/// The codec on its own: the method numbers against rabbitmq-c's, real broker traffic through the
/// decoders, and the frame decoder's checks.
@Suite("AMQP codec (no I/O)")
struct CodecTests {
    @Test("every method number is the one rabbitmq-c names for it")
    func methodNumbers() {
        for id in MethodID.all {
            let name = MethodID.libraryName(id)
            #expect(name?.hasSuffix("_METHOD") == true, "0x\(String(id, radix: 16)) is \(String(describing: name))")
        }
        #expect(MethodID.libraryName(MethodID.basicDeliver) == "AMQP_BASIC_DELIVER_METHOD")
        #expect(MethodID.libraryName(MethodID.exchangeUnbindOk) == "AMQP_EXCHANGE_UNBIND_OK_METHOD")
        #expect(Set(MethodID.all).count == MethodID.all.count)
    }

    @Test("every frame RabbitMQ sent in the recordings decodes", arguments: ["4.0", "3.10"])
    func recordingsDecode(version: String) throws {
        let broker = try RecordedBroker(version: version)
        let pool = DecodingPool()
        var strings = RecentStrings()
        var methods = Set<UInt32>()
        for frame in broker.frames {
            switch frame.kind {
            case .method:
                let method = try InboundMethod.decode(frame.payload, pool: pool, strings: &strings)
                methods.insert(method.id)
            case .header:
                _ = try ContentHeader.decode(frame.payload, pool: pool, strings: &strings)
            case .body, .heartbeat:
                break
            }
        }
        let expected: Set<UInt32> = [
            MethodID.connectionStart, MethodID.connectionTune, MethodID.connectionOpenOk, MethodID.channelOpenOk, MethodID.confirmSelectOk,
            MethodID.queueDeclareOk, MethodID.basicQosOk, MethodID.basicReturn, MethodID.basicAck, MethodID.basicNack, MethodID.basicConsumeOk,
            MethodID.basicDeliver, MethodID.basicCancelOk, MethodID.channelClose, MethodID.basicCancel, MethodID.queueDeleteOk, MethodID.connectionCloseOk,
        ]
        #expect(expected.isSubset(of: methods), "missing: \(expected.subtracting(methods).map { String($0, radix: 16) })")
        #expect(broker.frames.contains { $0.kind == .heartbeat })
    }

    /// A decoder as a connection has one before tune.
    static func decoder() -> FrameDecoder { FrameDecoder(maximumFrameSize: 4096) }

    @Test("the frame decoder checks every length before anything reads the payload")
    func frameChecks() throws {
        var decoder = FrameDecoder(maximumFrameSize: 4096)
        var tooLarge = ByteBuffer(bytes: [1, 0, 1, 0, 0, 0x10, 0x00])
        #expect(throws: FrameDecoder.Malformed.self) { try decoder.next(from: &tooLarge) }
        var noEnd = ByteBuffer(bytes: [8, 0, 0, 0, 0, 0, 0, 0xCD])
        #expect(throws: FrameDecoder.Malformed.self) { var decoder = Self.decoder(); _ = try decoder.next(from: &noEnd) }
        var unknownType = ByteBuffer(bytes: [9, 0, 0, 0, 0, 0, 0, 0xCE])
        #expect(throws: FrameDecoder.Malformed.self) { var decoder = Self.decoder(); _ = try decoder.next(from: &unknownType) }
        var otherVersion = ByteBuffer(bytes: Array("AMQP".utf8) + [0, 0, 9, 0])
        let refusal = #expect(throws: FrameDecoder.Malformed.self) { var decoder = Self.decoder(); _ = try decoder.next(from: &otherVersion) }
        #expect(refusal?.detail.contains("AMQP 0-9-0") == true)
        var partial = ByteBuffer(bytes: [8, 0, 0, 0, 0, 0])
        var waiting = Self.decoder()
        #expect(try waiting.next(from: &partial) == nil, "incomplete: wait for more")
        #expect(partial.readableBytes == 6, "nothing consumed")
        var shortMethod = ByteBuffer(bytes: [1, 0, 1, 0, 0, 0, 2, 0, 60, 0xCE])
        var shortDecoder = Self.decoder()
        let frame = try #require(try shortDecoder.next(from: &shortMethod))
        var strings = RecentStrings()
        #expect(throws: FrameDecoder.Malformed.self) { try InboundMethod.decode(frame.payload, pool: DecodingPool(), strings: &strings) }
    }

    @Test("a long stream whose reads never end on a frame boundary keeps the buffer to about a frame and a read")
    func bufferStaysBounded() throws {
        // Body frames of 100,000 bytes (a content of several), read 60,000 bytes at a time: 12 MB in all.
        var stream = ByteBuffer()
        for _ in 0..<120 {
            stream.writeInteger(AMQPFrame.Kind.method.rawValue)
            stream.writeInteger(UInt16(0))
            stream.writeInteger(UInt32(100_000))
            // An unknown method: the decoder cuts the frame and rabbitmq-c calls it `other`.
            stream.writeInteger(UInt32(0x00FF_00FF))
            stream.writeRepeatingByte(0, count: 100_000 - 4)
            stream.writeInteger(AMQPFrame.endMarker)
        }
        var decoder = InboundDecoder(maximumFrameSize: 131_072)
        var events = 0
        var largest = 0
        while stream.readableBytes > 0 {
            decoder.receive(stream.readSlice(length: min(60_000, stream.readableBytes))!)
            while let _ = try decoder.next() { events += 1 }
            largest = max(largest, decoder.bufferCapacity)
        }
        #expect(events == 120)
        #expect(largest <= 4 * 131_072, "the buffer grew to \(largest) bytes")
    }
}
