internal import CRabbitMQ

/// The memory rabbitmq-c decodes into: one `amqp_pool_t`, owned here, recycled after each frame (every
/// decoded value is copied into Swift first) and emptied in `deinit`.
///
/// Not `Sendable`: it belongs to the event loop of the connection that decodes with it.
final class DecodingPool {
    /// The pool lives at a fixed address of its own: a stored `amqp_pool_t` passed `inout` to C is an
    /// access that spans the call, which Swift checks for exclusivity at run time on every decode.
    private let pool = UnsafeMutablePointer<amqp_pool_t>.allocate(capacity: 1)

    init() {
        pool.initialize(to: amqp_pool_t())
        // Pages of 4 KiB: a method or content header of a usual size fits one, so a recycle keeps it.
        init_amqp_pool(pool, 4096)
    }

    deinit {
        empty_amqp_pool(pool)
        pool.deinitialize(count: 1)
        pool.deallocate()
    }

    /// Runs `body` with the pool, then recycles what it allocated.
    func withPool<Result>(_ body: (UnsafeMutablePointer<amqp_pool_t>) throws(FrameDecoder.Malformed) -> Result) throws(FrameDecoder.Malformed) -> Result {
        defer { recycle_amqp_pool(pool) }
        return try body(pool)
    }
}
