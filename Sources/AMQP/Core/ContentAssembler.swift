internal import NIOCore

/// Joins a `basic.deliver` or `basic.return` with the content header and body frames that follow it.
///
/// AMQP sends a method, then one header, then body frames adding up to the header's size, with nothing
/// else on that channel in between. This struct checks that order and does no I/O. A body that came in
/// one frame is a slice of the bytes read; only a body split over several frames is copied, into one
/// buffer of the size its header announced.
struct ContentAssembler {
    /// The method a content belongs to.
    enum Method: Equatable {
        case deliver(DeliverInfo)
        case returned(ReturnInfo)
    }

    /// A method with its complete content.
    struct Content: Equatable {
        var method: Method
        var properties: AMQPProperties
        var body: ByteBuffer
    }

    /// A frame that does not fit where it came, described for the error.
    struct Violation: Error, Equatable {
        var detail: String
    }

    private var method: Method?
    private var properties: AMQPProperties?
    private var expectedSize: UInt64 = 0
    private var body: ByteBuffer?

    /// Whether a method is waiting for its header or body.
    var isAssembling: Bool { method != nil }

    mutating func begin(_ method: Method) throws(Violation) {
        guard self.method == nil else { throw Violation(detail: "a new content method arrived before the previous body was complete") }
        self.method = method
    }

    /// The largest body a content header may announce: RabbitMQ's own ceiling for a message (its
    /// `max_message_size` cannot be set higher).
    static let maximumBodySize: UInt64 = 512 << 20

    mutating func header(_ header: ContentHeader) throws(Violation) -> Content? {
        guard method != nil, properties == nil else { throw Violation(detail: "a content header without its method") }
        guard header.bodySize <= Self.maximumBodySize else {
            throw Violation(detail: "a content header announces \(header.bodySize) bytes; a message holds at most \(Self.maximumBodySize)")
        }
        properties = header.properties
        expectedSize = header.bodySize
        return completeIfDone()
    }

    mutating func body(_ fragment: ByteBuffer) throws(Violation) -> Content? {
        guard method != nil, properties != nil else { throw Violation(detail: "a body frame without a content header") }
        let received = UInt64(body?.readableBytes ?? 0)
        guard received + UInt64(fragment.readableBytes) <= expectedSize else { throw Violation(detail: "the body is longer than its header said") }
        if body == nil, UInt64(fragment.readableBytes) == expectedSize {
            body = fragment
        } else {
            if body == nil {
                // Several frames: the one copy. Room for the announced size up to 1 MiB at once; a
                // larger body grows as its frames come, so an announcement alone reserves little.
                body = ByteBufferAllocator().buffer(capacity: Int(min(expectedSize, 1 << 20)))
            }
            var fragment = fragment
            body!.writeBuffer(&fragment)
        }
        return completeIfDone()
    }

    /// Forgets a half-received content, e.g. when the channel is gone.
    mutating func reset() {
        self = ContentAssembler()
    }

    private mutating func completeIfDone() -> Content? {
        guard let method, let properties, UInt64(body?.readableBytes ?? 0) == expectedSize else { return nil }
        let content = Content(method: method, properties: properties, body: body ?? ByteBuffer())
        reset()
        return content
    }
}
