import Foundation

/// One broker node, from an `amqp://` or `amqps://` URL of `amqp.urls`.
///
/// The description leaves the password out, so addresses can be logged.
public struct AMQPNodeAddress: Sendable, Hashable, CustomStringConvertible {
    /// `amqps://`: connect with TLS (see `amqp.tls`).
    public var usesTLS: Bool
    /// The host name or address, without brackets.
    public var host: String
    /// The URL's port, else 5672 (5671 for `amqps`).
    public var port: Int
    /// The URL's path without its leading slash, percent-decoded; `/` when the path is empty or `/`.
    public var virtualHost: String
    /// The URL's user, else `guest`.
    public var user: String
    /// The URL's password, else `guest`; `amqp.password_file` replaces it.
    public var password: String

    /// Parses a broker URL, or returns `nil` when it is not one.
    public init?(url: String) {
        guard let address = try? Self.parse(url) else { return nil }
        self = address
    }

    private init(usesTLS: Bool, host: String, port: Int, virtualHost: String, user: String, password: String) {
        self.usesTLS = usesTLS
        self.host = host
        self.port = port
        self.virtualHost = virtualHost
        self.user = user
        self.password = password
    }

    /// Parses a broker URL; the refusal never quotes the URL, which may hold a password.
    static func parse(_ url: String) throws(ValueRefusal) -> AMQPNodeAddress {
        let shape = "amqp://user:password@host:port/vhost (or amqps://)"
        guard let components = URLComponents(string: url), let scheme = components.scheme?.lowercased(),
            scheme == "amqp" || scheme == "amqps"
        else { throw ValueRefusal("must be a broker URL of the form \(shape)") }
        guard let host = components.host, !host.isEmpty else { throw ValueRefusal("names no host; expected \(shape)") }
        guard components.query == nil, components.fragment == nil else {
            throw ValueRefusal("must not carry URL parameters; use the amqp section's keys instead")
        }
        let tls = scheme == "amqps"
        let path = components.path
        return AMQPNodeAddress(
            usesTLS: tls,
            host: host,
            port: components.port ?? (tls ? 5671 : 5672),
            virtualHost: path.isEmpty || path == "/" ? "/" : String(path.dropFirst()),
            user: components.user ?? "guest",
            password: components.password ?? "guest"
        )
    }

    /// The URL without the password.
    public var description: String {
        "\(usesTLS ? "amqps" : "amqp")://\(user)@\(host):\(port)/\(virtualHost == "/" ? "" : virtualHost)"
    }
}
