#if canImport(Glibc)
internal import Glibc
#endif

extension AMQPConnection {
    /// Holds back partial TCP segments (TCP_CORK) until ``uncork()``: a turn's publishes and acks go out as
    /// a few full segments instead of one small packet per frame.
    func cork() {
        guard !isCorked, socketDescriptor >= 0 else { return }
        var on: Int32 = 1
        isCorked = setsockopt(socketDescriptor, Int32(IPPROTO_TCP), TCP_CORK, &on, socklen_t(MemoryLayout<Int32>.size)) == 0
    }

    /// Sends what was held back, now.
    func uncork() {
        guard isCorked else { return }
        isCorked = false
        var off: Int32 = 0
        _ = setsockopt(socketDescriptor, Int32(IPPROTO_TCP), TCP_CORK, &off, socklen_t(MemoryLayout<Int32>.size))
    }
}
