extension AMQPEndpoint {
    /// Parses `amqp[s]://[user[:password]@]host[:port][/vhost]` (RFC 3986, as RabbitMQ's URI spec).
    ///
    /// The port defaults to 5672 (`amqp`) or 5671 (`amqps`). User, password and vhost are percent-decoded;
    /// no path or a lone `/` means the default vhost `/`, as does `/%2F`. Without user info the
    /// credentials are guest/guest; a user without a password gets an empty one. A query string
    /// (`?heartbeat=…`) is ignored: tuning comes from ``AMQPClientOptions``. Errors describe what is wrong
    /// without quoting the URL, which may hold the password.
    public init(url: String) throws(AMQPError) {
        func invalid(_ problem: String) -> AMQPError {
            AMQPError(.invalidArgument, operation: "parse broker URL", message: problem)
        }
        guard let separator = url.firstRange(of: "://") else {
            throw invalid("the URL must start with amqp:// or amqps://")
        }
        let scheme = url[..<separator.lowerBound].lowercased()
        let usesTLS: Bool
        switch scheme {
        case "amqp": usesTLS = false
        case "amqps": usesTLS = true
        default:
            // Quote the scheme only when it looks like one: a missing "://" could put credentials before it.
            let safe = scheme.allSatisfy { $0.isLetter || $0.isNumber || "+-.".contains($0) }
            throw invalid(safe ? "unsupported scheme \"\(scheme)\"; use amqp:// or amqps://" : "the URL must start with amqp:// or amqps://")
        }
        let rest = url[separator.upperBound...]
        let authorityEnd = rest.firstIndex { $0 == "/" || $0 == "?" || $0 == "#" } ?? rest.endIndex
        let authority = rest[..<authorityEnd]
        var hostPort = authority
        var user = "guest"
        var password = "guest"
        if let at = authority.lastIndex(of: "@") {
            let userInfo = authority[..<at]
            hostPort = authority[authority.index(after: at)...]
            let colon = userInfo.firstIndex(of: ":")
            guard let decodedUser = PercentEncoding.decode(userInfo[..<(colon ?? userInfo.endIndex)]) else {
                throw invalid("the user name has a malformed percent-escape")
            }
            user = decodedUser
            password = ""
            if let colon {
                guard let decoded = PercentEncoding.decode(userInfo[userInfo.index(after: colon)...]) else {
                    throw invalid("the password has a malformed percent-escape")
                }
                password = decoded
            }
        }
        let (host, portText) = try Self.split(hostPort: hostPort, invalid: invalid)
        var port = Self.defaultPort(usesTLS: usesTLS)
        if let portText {
            guard !portText.isEmpty, portText.allSatisfy(\.isASCII), portText.allSatisfy(\.isNumber), let number = Int(portText), (1...65_535).contains(number) else {
                throw invalid("the port must be a number from 1 to 65535")
            }
            port = number
        }
        let virtualHost = try Self.virtualHost(fromPathAndQuery: rest[authorityEnd...], invalid: invalid)
        self.init(host: host, port: port, virtualHost: virtualHost, user: user, password: password, usesTLS: usesTLS)
    }

    /// Parses the URL, then takes the password from the first line of `passwordFile` instead of the URL.
    public init(url: String, passwordFile: String) throws(AMQPError) {
        try self.init(url: url)
        password = try Self.readPassword(fromFile: passwordFile)
    }

    /// `host`, `host:port`, `[v6]` or `[v6]:port` → host and optional port text.
    private static func split(hostPort: Substring, invalid: (String) -> AMQPError) throws(AMQPError) -> (String, Substring?) {
        if hostPort.hasPrefix("[") {
            guard let close = hostPort.firstIndex(of: "]") else { throw invalid("an IPv6 host must be closed by \"]\"") }
            let host = String(hostPort[hostPort.index(after: hostPort.startIndex)..<close])
            let after = hostPort[hostPort.index(after: close)...]
            guard !host.isEmpty else { throw invalid("the URL names no host") }
            if after.isEmpty { return (host, nil) }
            guard after.hasPrefix(":") else { throw invalid("unexpected characters after the IPv6 host") }
            return (host, after.dropFirst())
        }
        let colon = hostPort.firstIndex(of: ":")
        guard let host = PercentEncoding.decode(hostPort[..<(colon ?? hostPort.endIndex)]), !host.isEmpty else {
            throw invalid("the URL names no host")
        }
        return (host, colon.map { hostPort[hostPort.index(after: $0)...] })
    }

    /// The path is at most one segment: none or a lone `/` means `/`, and `/%2F` is `/` too.
    private static func virtualHost(fromPathAndQuery tail: Substring, invalid: (String) -> AMQPError) throws(AMQPError) -> String {
        let path = tail[..<(tail.firstIndex { $0 == "?" || $0 == "#" } ?? tail.endIndex)]
        // The authority ended at "/", "?" or "#", so a non-empty path starts with "/".
        let segment = path.dropFirst()
        guard !segment.contains("/") else { throw invalid("the vhost must be one path segment; write \"/\" inside it as %2F") }
        guard let decoded = PercentEncoding.decode(segment) else { throw invalid("the vhost has a malformed percent-escape") }
        return decoded.isEmpty ? "/" : decoded
    }
}
