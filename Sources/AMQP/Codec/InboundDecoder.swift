internal import NIOCore

/// What a connection reads, decoded, with no I/O: frames cut out with every length checked first,
/// methods and content headers decoded by rabbitmq-c into a pool it owns, contents joined with their
/// method. The connection feeds it each read; the fuzzer (`make fuzz`, amqp-frames) feeds it anything.
struct InboundDecoder {
    /// One thing the broker said.
    enum Event: Equatable {
        case method(InboundMethod, channel: UInt16)
        /// A delivery or a returned message, complete.
        case content(ContentAssembler.Content)
        case heartbeat
    }

    private var frames: FrameDecoder
    private let pool = DecodingPool()
    private var strings = RecentStrings()
    private var assembler = ContentAssembler()
    /// Bytes of a frame not yet complete, kept from one read to the next.
    private var partial: ByteBuffer?
    /// The one channel content may come on (the work channel, once open); content anywhere else, or
    /// before, is a protocol violation.
    var contentChannel: UInt16?

    /// The bytes the decoder's buffer holds room for now (what a long stream must not make grow).
    var bufferCapacity: Int { partial?.capacity ?? 0 }

    /// The largest whole frame accepted: the negotiated `frame_max` once tuned.
    var maximumFrameSize: Int {
        get { frames.maximumFrameSize }
        set { frames.maximumFrameSize = newValue }
    }

    init(maximumFrameSize: Int) {
        frames = FrameDecoder(maximumFrameSize: maximumFrameSize)
    }

    /// Adds what was read; the bytes of an unfinished frame are kept (the one copy reads make).
    mutating func receive(_ bytes: ByteBuffer) {
        guard var kept = partial else {
            partial = bytes
            return
        }
        // Held only here while it grows (no copy on write), and without the bytes already cut into
        // frames: otherwise a stream whose reads never end on a frame boundary (large messages)
        // kept every byte ever read in one buffer, and each job of 1 MiB took longer than the last.
        partial = nil
        kept.discardReadBytes()
        var bytes = bytes
        kept.writeBuffer(&bytes)
        partial = kept
    }

    /// The next event in what was received; nil when the rest needs more bytes. A body frame that
    /// completes nothing yet, and a method that begins a content, return no event but are consumed.
    mutating func next() throws(AMQPError) -> Event? {
        while var bytes = partial {
            defer { partial = bytes.readableBytes > 0 ? bytes : nil }
            guard let frame = try frame(from: &bytes) else { return nil }
            if let event = try handle(frame) { return event }
        }
        return nil
    }

    private mutating func frame(from bytes: inout ByteBuffer) throws(AMQPError) -> AMQPFrame? {
        do {
            return try frames.next(from: &bytes)
        } catch {
            throw AMQPError.library(AMQPError.badDataStatus, "read", error.detail)
        }
    }

    private mutating func handle(_ frame: AMQPFrame) throws(AMQPError) -> Event? {
        do {
            switch frame.kind {
            case .heartbeat:
                return .heartbeat
            case .method:
                let method = try InboundMethod.decode(frame.payload, pool: pool, strings: &strings)
                switch method {
                case .basicDeliver(let info) where frame.channel == contentChannel:
                    try assembler.begin(.deliver(info))
                    return nil
                case .basicReturn(let info) where frame.channel == contentChannel:
                    try assembler.begin(.returned(info))
                    return nil
                case .basicDeliver, .basicReturn:
                    throw AMQPError.protocolViolation("read", "content on channel \(frame.channel)")
                default:
                    return .method(method, channel: frame.channel)
                }
            case .header:
                guard frame.channel == contentChannel else { throw AMQPError.protocolViolation("read", "a content header on channel \(frame.channel)") }
                return try assembler.header(ContentHeader.decode(frame.payload, pool: pool, strings: &strings)).map(Event.content)
            case .body:
                guard frame.channel == contentChannel else { throw AMQPError.protocolViolation("read", "a body frame on channel \(frame.channel)") }
                return try assembler.body(frame.payload).map(Event.content)
            }
        } catch let malformed as FrameDecoder.Malformed {
            throw .library(AMQPError.badDataStatus, "read", malformed.detail)
        } catch let violation as ContentAssembler.Violation {
            throw .protocolViolation("read", violation.detail)
        } catch let error as AMQPError {
            throw error
        } catch {
            throw AMQPError(.connectionLost, operation: "read", message: "\(error)")
        }
    }
}

/// The inbound decoder for the fuzzer and the corpus tests, over plain bytes.
package enum InboundDecoding {
    /// Decodes `bytes` as one connection would after its handshake (content on channel 1), fed in
    /// reads cut at `cuts`: the events, summarised (a method's number and channel, a content's
    /// method and body size, a heartbeat), until the first error, which is last.
    package static func summary(of bytes: [UInt8], cuts: [Int], maximumFrameSize: Int = AMQPMessage.defaultFrameMax) -> [String] {
        var decoder = InboundDecoder(maximumFrameSize: maximumFrameSize)
        decoder.contentChannel = 1
        var summary: [String] = []
        var start = 0
        for end in (cuts.filter { $0 > 0 && $0 < bytes.count }.sorted() + [bytes.count]) where end >= start {
            decoder.receive(ByteBuffer(bytes: bytes[start..<end]))
            start = end
            do {
                while let event = try decoder.next() {
                    switch event {
                    case .method(let method, let channel): summary.append("method 0x\(String(method.id, radix: 16)) on \(channel)")
                    case .content(let content): summary.append("content \(content.method) of \(content.body.readableBytes) bytes")
                    case .heartbeat: summary.append("heartbeat")
                    }
                }
            } catch {
                summary.append("error: \(error.message)")
                return summary
            }
        }
        return summary
    }
}
