internal import NIOCore

/// Cuts frames out of the bytes read from the broker, checking every length before anything else looks
/// at them: rabbitmq-c's decoders then only ever see a whole payload of a size the connection allows.
///
/// No I/O; the payloads are slices of the buffer handed in. A broker answering the protocol header
/// with its own ("AMQP" and another version) is recognised and reported as such.
struct FrameDecoder {
    /// A byte sequence that is not a frame this connection may receive.
    struct Malformed: Error, Equatable {
        var detail: String
    }

    /// The largest whole frame accepted (header and end marker included): the negotiated `frame_max`
    /// once tuned. A frame above it is a protocol violation, not something to buffer.
    var maximumFrameSize: Int
    private var sawFirstByte = false

    init(maximumFrameSize: Int) {
        self.maximumFrameSize = maximumFrameSize
    }

    /// The next complete frame in `buffer`, consuming its bytes; nil when more must be read first.
    mutating func next(from buffer: inout ByteBuffer) throws(Malformed) -> AMQPFrame? {
        guard let typeByte = buffer.getInteger(at: buffer.readerIndex, as: UInt8.self) else { return nil }
        if !sawFirstByte, typeByte == AMQPFrame.protocolHeader[0] {
            // Its whole header says which version it speaks; until then, wait (however the bytes were cut).
            guard buffer.readableBytes >= AMQPFrame.protocolHeader.count else { return nil }
            throw Malformed(detail: "the broker answered with its own protocol header \(Self.describeHeader(buffer)): it does not speak AMQP 0-9-1")
        }
        sawFirstByte = true
        guard let kind = AMQPFrame.Kind(rawValue: typeByte) else {
            throw Malformed(detail: "unknown frame type \(typeByte)")
        }
        guard buffer.readableBytes >= AMQPFrame.headerSize else { return nil }
        let index = buffer.readerIndex
        let channel = buffer.getInteger(at: index + 1, as: UInt16.self)!
        let size = buffer.getInteger(at: index + 3, as: UInt32.self)!
        guard Int(size) <= maximumFrameSize - AMQPFrame.overhead else {
            throw Malformed(detail: "a frame of \(size) bytes exceeds the frame size of \(maximumFrameSize)")
        }
        let total = AMQPFrame.overhead + Int(size)
        guard buffer.readableBytes >= total else { return nil }
        guard buffer.getInteger(at: index + total - 1, as: UInt8.self) == AMQPFrame.endMarker else {
            throw Malformed(detail: "a frame does not end with 0xCE")
        }
        if kind == .heartbeat, channel != 0 {
            throw Malformed(detail: "a heartbeat on channel \(channel)")
        }
        let payload = buffer.getSlice(at: index + AMQPFrame.headerSize, length: Int(size))!
        buffer.moveReaderIndex(forwardBy: total)
        return AMQPFrame(kind: kind, channel: channel, payload: payload)
    }

    private static func describeHeader(_ buffer: ByteBuffer) -> String {
        let bytes = buffer.getBytes(at: buffer.readerIndex, length: AMQPFrame.protocolHeader.count) ?? []
        return "(AMQP \(bytes[5])-\(bytes[6])-\(bytes[7]))"
    }
}
