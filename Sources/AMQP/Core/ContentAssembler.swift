/// Joins a `basic.deliver` or `basic.return` with the content header and body frames that follow it.
///
/// AMQP sends a method, then one header, then body frames adding up to the header's size, with nothing else
/// on that channel in between. This struct checks that order and does no I/O.
struct ContentAssembler {
    /// The method a content belongs to.
    enum Method: Equatable {
        case deliver(DeliverInfo)
        case returned(ReturnInfo)
    }

    /// A method with its complete message.
    struct Content: Equatable {
        var method: Method
        var message: AMQPMessage
    }

    /// A frame that does not fit where it came, described for the error.
    struct Violation: Error, Equatable {
        var detail: String
    }

    private var method: Method?
    private var properties: AMQPProperties?
    private var expectedSize: UInt64 = 0
    private var body: [UInt8] = []

    /// Whether a method is waiting for its header or body.
    var isAssembling: Bool { method != nil }

    mutating func begin(_ method: Method) throws(Violation) {
        guard self.method == nil else { throw Violation(detail: "a new content method arrived before the previous body was complete") }
        self.method = method
    }

    mutating func header(_ properties: AMQPProperties, bodySize: UInt64) throws(Violation) -> Content? {
        guard method != nil, self.properties == nil else { throw Violation(detail: "a content header without its method") }
        self.properties = properties
        expectedSize = bodySize
        body = []
        body.reserveCapacity(Int(clamping: min(bodySize, 1 << 24)))
        return completeIfDone()
    }

    mutating func body(_ fragment: [UInt8]) throws(Violation) -> Content? {
        guard method != nil, properties != nil else { throw Violation(detail: "a body frame without a content header") }
        guard UInt64(body.count + fragment.count) <= expectedSize else { throw Violation(detail: "the body is longer than its header said") }
        body += fragment
        return completeIfDone()
    }

    /// Forgets a half-received content, e.g. when the channel is gone.
    mutating func reset() {
        self = ContentAssembler()
    }

    private mutating func completeIfDone() -> Content? {
        guard let method, let properties, UInt64(body.count) == expectedSize else { return nil }
        let content = Content(method: method, message: AMQPMessage(body: body, properties: properties))
        reset()
        return content
    }
}
