import APNsCore
import AMQPConfiguration

extension Parse {
    /// `host:port`, or `[v6-address]:port`.
    static func endpoint(_ node: ConfigNode) throws -> APNsEndpoint {
        let value = try text(node)
        let refusal = ValueRefusal("must be host:port, e.g. localhost:2197, not \"\(value)\"")
        guard let colon = value.lastIndex(of: ":") else { throw refusal }
        var host = Substring(value[..<colon])
        if host.hasPrefix("["), host.hasSuffix("]") { host = host.dropFirst().dropLast() }
        guard !host.isEmpty, let port = Int(value[value.index(after: colon)...]), (1...65535).contains(port) else {
            throw refusal
        }
        return APNsEndpoint(host: String(host), port: port)
    }

    /// A broker URL; the message never repeats the URL, since it may hold a password.
    static func brokerURL(_ node: ConfigNode) throws -> String {
        let value = try string(node)
        do {
            _ = try AMQPEndpoint(url: value)
        } catch {
            throw ValueRefusal("is not a usable broker URL: \(error.message)")
        }
        return value
    }
}
