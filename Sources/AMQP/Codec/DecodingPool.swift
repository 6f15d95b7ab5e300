internal import CRabbitMQ

/// The memory rabbitmq-c decodes into: one `amqp_pool_t`, owned here, recycled after each frame (every
/// decoded value is copied into Swift first) and emptied in `deinit`.
///
/// Not `Sendable`: it belongs to the event loop of the connection that decodes with it.
final class DecodingPool {
    private var pool = amqp_pool_t()

    init() {
        // Pages of 4 KiB: a method or content header of a usual size fits one, so a recycle keeps it.
        init_amqp_pool(&pool, 4096)
    }

    deinit {
        empty_amqp_pool(&pool)
    }

    /// Runs `body` with the pool, then recycles what it allocated.
    func withPool<Result>(_ body: (UnsafeMutablePointer<amqp_pool_t>) throws(FrameDecoder.Malformed) -> Result) throws(FrameDecoder.Malformed) -> Result {
        defer { recycle_amqp_pool(&pool) }
        return try body(&pool)
    }
}
