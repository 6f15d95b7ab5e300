internal import Foundation

/// An HTTP proxy that APNs connections tunnel through with `CONNECT` (RFC 9110 §9.3.6): the proxy
/// resolves Apple's host name and relays bytes; TLS and its certificate checks stay end to end.
public struct HTTPProxy: Sendable, Hashable, CustomStringConvertible {
    public let host: String
    public let port: Int
    /// Basic authentication (`Proxy-Authorization`), when the URL carries a user.
    public let username: String?
    package let password: String?
    /// Hosts that bypass the proxy (`NO_PROXY`): an exact name, a domain suffix (`.apple.com` or
    /// `apple.com` both match `api.push.apple.com`), or `*` for every host.
    public var bypass: [String]

    /// Parses `http://[user[:password]@]host[:port]` (port 80 when absent, `user` and `password`
    /// percent-decoded). Only `http` proxies: the tunnel itself carries TLS to Apple.
    public init(url text: String, bypass: [String] = []) throws(ProxyConfigurationError) {
        guard let components = URLComponents(string: text.contains("://") ? text : "http://" + text) else {
            throw ProxyConfigurationError("is not a URL: give http://[user:password@]host:port")
        }
        guard components.scheme?.lowercased() == "http" else {
            throw ProxyConfigurationError("must be an http:// proxy (CONNECT tunnels carry TLS to Apple themselves), not \(components.scheme ?? "")://")
        }
        guard let host = components.host, !host.isEmpty else { throw ProxyConfigurationError("names no host") }
        guard components.path.isEmpty || components.path == "/", components.query == nil else {
            throw ProxyConfigurationError("must be just http://[user:password@]host:port, without a path or query")
        }
        self.host = host
        port = components.port ?? 80
        username = components.percentEncodedUser.flatMap { $0.removingPercentEncoding }
        password = components.percentEncodedPassword.flatMap { $0.removingPercentEncoding }
        self.bypass = bypass
    }

    /// Whether connections to `host` go through this proxy (not listed in ``bypass``).
    public func applies(to host: String) -> Bool {
        let host = host.lowercased()
        return !bypass.contains { entry in
            let entry = entry.lowercased().trimmingCharacters(in: .whitespaces)
            if entry == "*" { return true }
            let domain = entry.hasPrefix(".") ? String(entry.dropFirst()) : entry
            return !domain.isEmpty && (host == domain || host.hasSuffix("." + domain))
        }
    }

    /// The `CONNECT` request for `host:port`, with basic authentication when configured.
    package func connectRequest(to host: String, port: Int) -> String {
        var request = "CONNECT \(host):\(port) HTTP/1.1\r\nHost: \(host):\(port)\r\n"
        if let username {
            let credentials = Data("\(username):\(password ?? "")".utf8).base64EncodedString()
            request += "Proxy-Authorization: Basic \(credentials)\r\n"
        }
        return request + "\r\n"
    }

    /// `http://user:<password>@host:port`: never the password, which would reach logs.
    public var description: String {
        "http://" + (username.map { "\($0):<password>@" } ?? "") + "\(host):\(port)"
    }

    /// The bypass list for a proxy taken from the environment: `NO_PROXY`'s value (comma-separated)
    /// plus the loopback names. A machine-wide `HTTPS_PROXY` is meant for the outside world, never
    /// for a mock or a tunnel on this host (Go's `httpproxy` rule too).
    public static func bypassList(_ value: String?) -> [String] {
        let listed = (value ?? "").split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        return listed + ["localhost", "127.0.0.1", "::1"]
    }
}

/// A proxy URL the client cannot use; the message says why.
public struct ProxyConfigurationError: Error, Sendable, CustomStringConvertible {
    public let description: String

    init(_ description: String) {
        self.description = description
    }
}
