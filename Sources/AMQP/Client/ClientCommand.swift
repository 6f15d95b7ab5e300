/// Work handed from any task to the client's event loop, with the continuation that reports back.
enum ClientCommand: Sendable {
    /// The first connection, tried for at most the duration.
    case connect(Duration, CheckedContinuation<Void, any Error>)
    case publish(PublishRequest, CheckedContinuation<AMQPPublishOutcome, any Error>)
    /// Answered on the loop: a caller there goes on at once, a task through its continuation.
    case publishBatch(PublishBatchRequest, @Sendable (AMQPBatchOutcome) -> Void)
    case settle(Settlement, CheckedContinuation<Void, Never>)
    /// Answered with the ready-message count of a `checkQueue` (0 for the other requests).
    case topology(TopologyRequest, CheckedContinuation<AMQPQueueCounts, any Error>)
    case consume(ConsumeRequest, CheckedContinuation<Void, any Error>)
    case cancelConsuming(CheckedContinuation<Void, Never>)
    /// Close and open again, if the connection is still the one of `generation`.
    case reopen(generation: UInt64, reason: String, CheckedContinuation<Void, Never>)
    /// `nil` when the client is deinitialised without `close()`: the thread still has to stop.
    case close(CheckedContinuation<Void, Never>?)

    /// What the command does, for errors.
    var operation: String {
        switch self {
        case .connect: "connect"
        case .publish(let request, _): "publish to exchange \"\(request.exchange)\""
        case .publishBatch: "publish and ack"
        case .settle: "ack or reject"
        case .topology(let request, _): request.operation
        case .consume(let request, _): "consume \(request.queues.map(\.name).joined(separator: ", "))"
        case .cancelConsuming: "cancel consuming"
        case .reopen: "reopen the connection"
        case .close: "close"
        }
    }

    var isClose: Bool {
        if case .close = self { true } else { false }
    }

    /// Resumes the caller with `error` (or plainly, for the commands that cannot fail) without doing anything.
    func fail(_ error: AMQPError) {
        switch self {
        case .connect(_, let continuation): continuation.resume(throwing: error)
        case .publish(_, let continuation): continuation.resume(throwing: error)
        case .publishBatch(let request, let answer):
            answer(AMQPBatchOutcome(outcomes: request.messages.map { _ in .failure(error) }, acked: false))
        case .settle(_, let continuation): continuation.resume()
        case .topology(_, let continuation): continuation.resume(throwing: error)
        case .consume(let request, let continuation):
            request.sink.finish()
            continuation.resume(throwing: error)
        case .cancelConsuming(let continuation): continuation.resume()
        case .reopen(_, _, let continuation): continuation.resume()
        case .close(let continuation): continuation?.resume()
        }
    }
}
