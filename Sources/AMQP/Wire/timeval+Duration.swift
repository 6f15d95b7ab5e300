#if canImport(Glibc)
internal import Glibc
#endif

extension timeval {
    /// A C timeout from a Swift duration (whole microseconds).
    init(_ duration: Duration) {
        let (seconds, attoseconds) = max(duration, .zero).components
        self.init(tv_sec: Int(seconds), tv_usec: Int(attoseconds / 1_000_000_000_000))
    }
}
