#if canImport(Glibc)
import Glibc
#endif

/// TCP ports for test servers (a worker's metrics, Prometheus, proxies) to listen on.
public enum FreePort {
    /// A port nobody listens on right now, below the kernel's ephemeral range (32768 and up).
    ///
    /// Not the kernel's own pick, nor a random port above 32767: those are ephemeral ports, which any
    /// outgoing connection of a parallel test may take between this check and the server's bind (a
    /// worker of `make test` died of "Address already in use" so, and a Prometheus never came up).
    /// Random ports below the range are only taken by another test's random pick, and each is
    /// checked free first.
    public static func pick() -> Int {
        for _ in 0..<50 {
            let port = Int.random(in: 20_000..<32_000)
            if isFree(port) { return port }
        }
        return Int.random(in: 20_000..<32_000)
    }

    private static func isFree(_ port: Int) -> Bool {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = UInt16(port).bigEndian
        return withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0 }
        }
    }
}
