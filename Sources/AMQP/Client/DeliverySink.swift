/// Where a consumer's deliveries go: one by one, or in the batches the connection reads them in (one
/// hand-over, and one task wake-up, per batch instead of per delivery), or to a handler on the
/// client's event loop (no hand-over at all: it runs where they were read).
enum DeliverySink: Sendable {
    case each(AsyncStream<AMQPDelivery>.Continuation)
    case batches(AsyncStream<[AMQPDelivery]>.Continuation)
    case onLoop(deliver: @Sendable ([AMQPDelivery]) -> Void, finished: @Sendable () -> Void)

    /// Hands `deliveries` over; false when nobody reads any more (they must go back to the queue).
    func yield(_ deliveries: [AMQPDelivery]) -> Bool {
        switch self {
        case .each(let stream):
            for delivery in deliveries {
                guard case .enqueued = stream.yield(delivery) else { return false }
            }
            return true
        case .batches(let stream):
            if case .enqueued = stream.yield(deliveries) { return true }
            return false
        case .onLoop(let deliver, _):
            deliver(deliveries)
            return true
        }
    }

    /// Whether a batch handed over stays with the consumer after ``yield(_:)`` returns (an async
    /// stream's buffer keeps it); otherwise its storage can serve the next batch.
    var keepsBatches: Bool {
        if case .batches = self { true } else { false }
    }

    func finish() {
        switch self {
        case .each(let stream): stream.finish()
        case .batches(let stream): stream.finish()
        case .onLoop(_, let finished): finished()
        }
    }
}
