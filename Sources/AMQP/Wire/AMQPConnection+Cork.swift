#if canImport(Glibc)
internal import Glibc
#endif

extension AMQPConnection {
    /// Holds back partial TCP segments (TCP_CORK) until ``uncork(_:)``; returns the descriptor corked.
    func cork() -> Int32? {
        let descriptor = socketDescriptor
        guard descriptor >= 0 else { return nil }
        var on: Int32 = 1
        return setsockopt(descriptor, Int32(IPPROTO_TCP), TCP_CORK, &on, socklen_t(MemoryLayout<Int32>.size)) == 0 ? descriptor : nil
    }

    /// Sends what was held back, now.
    func uncork(_ descriptor: Int32) {
        // The socket may have been replaced during the batch (a reconnect); only touch the one corked.
        guard descriptor == socketDescriptor else { return }
        var off: Int32 = 0
        _ = setsockopt(descriptor, Int32(IPPROTO_TCP), TCP_CORK, &off, socklen_t(MemoryLayout<Int32>.size))
    }
}
