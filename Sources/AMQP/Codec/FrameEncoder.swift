internal import CRabbitMQ
internal import NIOCore

/// Writes frames into an outbound buffer: the envelope here (type, channel, size, 0xCE), every method
/// and content header by rabbitmq-c (`amqp_encode_method`, `amqp_encode_properties`), bodies split at
/// `frame_max − 8`. A frame that cannot be encoded leaves the buffer as it was, so nothing half-written
/// ever reaches the broker. No I/O; one per connection, used on its event loop.
struct FrameEncoder {
    /// rabbitmq-c refused to encode something (a string over 255 bytes, a table that does not fit).
    struct Refusal: Error, Equatable {
        var status: Int32
        var what: String

        var message: String { "\(what) cannot be encoded: \(String(cString: amqp_error_string2(status)))" }
    }

    /// The largest whole frame the broker accepts: AMQP's minimum until `connection.tune`.
    var frameMax: Int
    private let arena = EncodingArena()

    init(frameMax: Int = AMQPFrame.minimumSize) {
        self.frameMax = frameMax
    }

    /// "AMQP 0-9-1", what the client sends before any frame.
    func protocolHeader(into buffer: inout ByteBuffer) {
        buffer.writeBytes(AMQPFrame.protocolHeader)
    }

    /// A heartbeat frame (type 8 on channel 0, no payload).
    func heartbeat(into buffer: inout ByteBuffer) {
        buffer.writeInteger(AMQPFrame.Kind.heartbeat.rawValue)
        buffer.writeInteger(UInt16(0))
        buffer.writeInteger(UInt32(0))
        buffer.writeInteger(AMQPFrame.endMarker)
    }

    /// A method frame on `channel`.
    func method(_ method: OutboundMethod, channel: UInt16, into buffer: inout ByteBuffer) throws(Refusal) {
        defer { arena.reset() }
        let (id, decoded) = method.arguments(in: arena)
        let start = buffer.writerIndex
        do {
            try frame(.method, channel: channel, into: &buffer) { (buffer) throws(Refusal) in
                buffer.writeInteger(id)
                try encode("method 0x\(String(id, radix: 16))", into: &buffer, room: frameMax - AMQPFrame.overhead - 4) { amqp_encode_method(id, decoded, $0) }
            }
        } catch {
            buffer.moveWriterIndex(to: start)
            throw error
        }
    }

    /// `basic.publish` with its content header and body frames, or nothing at all when a part cannot be
    /// encoded. `extraHeader` goes into the header table after the message's own (and replaces its key).
    func publish(
        channel: UInt16, exchange: String, routingKey: String, mandatory: Bool, properties: AMQPProperties,
        extraHeader: (key: String, value: AMQPFieldValue)?, body: UnsafeRawBufferPointer, into buffer: inout ByteBuffer
    ) throws(Refusal) {
        defer { arena.reset() }
        let start = buffer.writerIndex
        do {
            var publish = amqp_basic_publish_t(ticket: 0, exchange: arena.bytes(exchange), routing_key: arena.bytes(routingKey), mandatory: mandatory ? 1 : 0, immediate: 0)
            try frame(.method, channel: channel, into: &buffer) { (buffer) throws(Refusal) in
                buffer.writeInteger(MethodID.basicPublish)
                try encode("basic.publish", into: &buffer, room: frameMax - AMQPFrame.overhead - 4) { amqp_encode_method(MethodID.basicPublish, &publish, $0) }
            }
            var c = arena.properties(properties, extraHeader: extraHeader)
            try frame(.header, channel: channel, into: &buffer) { (buffer) throws(Refusal) in
                buffer.writeInteger(UInt16(AMQP_BASIC_CLASS))
                buffer.writeInteger(UInt16(0))
                buffer.writeInteger(UInt64(body.count))
                try encode("the content header", into: &buffer, room: frameMax - AMQPFrame.overhead - ContentHeader.prefixSize) {
                    amqp_encode_properties(UInt16(AMQP_BASIC_CLASS), &c, $0)
                }
            }
        } catch {
            buffer.moveWriterIndex(to: start)
            throw error
        }
        let room = frameMax - AMQPFrame.overhead
        var offset = 0
        while offset < body.count {
            let part = UnsafeRawBufferPointer(rebasing: body[offset..<min(body.count, offset + room)])
            frame(.body, channel: channel, into: &buffer) { $0.writeBytes(part) }
            offset += part.count
        }
    }

    /// The envelope around what `payload` writes. The type, channel and size go in as one write: each
    /// write to a `ByteBuffer` is a call with its own capacity and exclusivity checks (a publish made
    /// 18 of them, most of a job's ByteBuffer writes under callgrind), and NIO's
    /// `writeMultipleIntegers` cost more than the three it replaced.
    private func frame<Failure: Error>(_ kind: AMQPFrame.Kind, channel: UInt16, into buffer: inout ByteBuffer, _ payload: (inout ByteBuffer) throws(Failure) -> Void) throws(Failure) {
        let sizeIndex = buffer.writerIndex + 3
        buffer.writeWithUnsafeMutableBytes(minimumWritableBytes: 7) { raw in
            raw[0] = kind.rawValue
            raw.storeBytes(of: channel.bigEndian, toByteOffset: 1, as: UInt16.self)
            raw.storeBytes(of: 0, toByteOffset: 3, as: UInt32.self)
            return 7
        }
        try payload(&buffer)
        buffer.setInteger(UInt32(buffer.writerIndex - sizeIndex - 4), at: sizeIndex)
        buffer.writeInteger(AMQPFrame.endMarker)
    }

    /// Lets rabbitmq-c write into at most `room` bytes of `buffer`'s free space; its status (the count
    /// written, or a negative error) decides.
    private func encode(_ what: @autoclosure () -> String, into buffer: inout ByteBuffer, room: Int, _ encoder: (amqp_bytes_t) -> Int32) throws(Refusal) {
        var status: Int32 = 0
        buffer.writeWithUnsafeMutableBytes(minimumWritableBytes: room) { raw in
            status = encoder(amqp_bytes_t(len: min(raw.count, room), bytes: raw.baseAddress))
            return max(0, Int(status))
        }
        guard status >= 0 else { throw Refusal(status: status, what: what()) }
    }
}
