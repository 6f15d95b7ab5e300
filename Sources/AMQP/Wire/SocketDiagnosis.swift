#if canImport(Glibc)
internal import Glibc
#endif

/// What the kernel says about reaching `host:port`, for a failed connect: rabbitmq-c reports every
/// socket failure as one status ("a socket error occurred") and keeps errno to itself, which leaves an
/// operator guessing between a broker that is down, a wrong port and a firewall.
enum SocketDiagnosis {
    /// "connection refused by 127.0.0.1:5672", "no answer from 10.0.0.5:5672 within 2 s", …; nil when
    /// a connect now succeeds (the failure was passing) or the name does not resolve (rabbitmq-c says so).
    static func explain(host: String, port: Int, timeout: Duration) -> String? {
        var hints = addrinfo()
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        var found: UnsafeMutablePointer<addrinfo>?
        guard getaddrinfo(host, String(port), &hints, &found) == 0, let first = found else { return nil }
        defer { freeaddrinfo(found) }
        var reasons: [String] = []
        var candidate: UnsafeMutablePointer<addrinfo>? = first
        while let address = candidate {
            candidate = address.pointee.ai_next
            guard let reason = probe(address.pointee, timeout: timeout) else { return nil }
            reasons.append("\(reason) \(describe(address.pointee)):\(port)")
        }
        return reasons.joined(separator: "; ")
    }

    /// Why a non-blocking connect to `address` failed, or nil if it succeeded.
    private static func probe(_ address: addrinfo, timeout: Duration) -> String? {
        let descriptor = socket(address.ai_family, address.ai_socktype | Int32(SOCK_NONBLOCK.rawValue) | Int32(SOCK_CLOEXEC.rawValue), address.ai_protocol)
        guard descriptor >= 0 else { return "no socket (\(String(cString: strerror(errno)))) for" }
        defer { close(descriptor) }
        var failure: Int32 = 0
        if connect(descriptor, address.ai_addr, address.ai_addrlen) != 0 {
            guard errno == EINPROGRESS else { return phrase(errno) }
            var waiting = pollfd(fd: descriptor, events: Int16(POLLOUT), revents: 0)
            let (seconds, attoseconds) = timeout.components
            guard poll(&waiting, 1, Int32(clamping: seconds * 1000 + attoseconds / 1_000_000_000_000_000)) == 1 else {
                return "no answer within \(timeout) from"
            }
            var length = socklen_t(MemoryLayout<Int32>.size)
            _ = getsockopt(descriptor, SOL_SOCKET, SO_ERROR, &failure, &length)
        }
        return failure == 0 ? nil : phrase(failure)
    }

    private static func phrase(_ code: Int32) -> String {
        switch code {
        case ECONNREFUSED: "connection refused by"
        case ETIMEDOUT: "connection timed out to"
        case EHOSTUNREACH, ENETUNREACH: "no route to"
        default: "\(String(cString: strerror(code)).lowercased()) connecting to"
        }
    }

    private static func describe(_ address: addrinfo) -> String {
        var text = [CChar](repeating: 0, count: Int(NI_MAXHOST))
        guard getnameinfo(address.ai_addr, address.ai_addrlen, &text, socklen_t(text.count), nil, 0, NI_NUMERICHOST) == 0 else { return "?" }
        let numeric = String(decoding: text.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        return address.ai_family == AF_INET6 ? "[\(numeric)]" : numeric
    }
}
