/// One broker node, parsed from an `amqp://` or `amqps://` URL.
///
/// The password is kept for logging in but never shown: ``description`` and every error leave it out.
public struct AMQPEndpoint: Sendable, Hashable, CustomStringConvertible, CustomReflectable {
    /// Host name or IP address (IPv6 without brackets).
    public var host: String
    /// TCP port; see ``defaultPort(usesTLS:)``.
    public var port: Int
    /// The virtual host, already percent-decoded; `"/"` is RabbitMQ's default.
    public var virtualHost: String
    /// User name for PLAIN login.
    public var user: String
    /// Never shown by ``description``, mirrors or errors.
    public var password: String
    /// Whether to speak TLS (`amqps`); see ``AMQPTLSOptions`` for verification and client certificates.
    public var usesTLS: Bool

    /// The IANA ports: 5672 for `amqp`, 5671 for `amqps`.
    public static func defaultPort(usesTLS: Bool) -> Int { usesTLS ? 5671 : 5672 }

    /// An endpoint from its parts; RabbitMQ's defaults (guest on `/`).
    public init(host: String, port: Int = 5672, virtualHost: String = "/", user: String = "guest", password: String = "guest", usesTLS: Bool = false) {
        self.host = host
        self.port = port
        self.virtualHost = virtualHost
        self.user = user
        self.password = password
        self.usesTLS = usesTLS
    }

    /// The URL without the password, e.g. `amqps://worker@rabbit-1:5671/jobs`; `/` is the default vhost.
    public var description: String {
        let scheme = usesTLS ? "amqps" : "amqp"
        let shownHost = host.contains(":") ? "[\(host)]" : host
        let path = virtualHost == "/" ? "" : PercentEncoding.encode(virtualHost)
        return "\(scheme)://\(PercentEncoding.encode(user))@\(shownHost):\(port)/\(path)"
    }

    /// What `dump` and debuggers show: every field but the password.
    public var customMirror: Mirror {
        Mirror(self, children: ["host": host, "port": port, "virtualHost": virtualHost, "user": user, "password": "<redacted>", "usesTLS": usesTLS])
    }
}
