internal import CRabbitMQ
#if canImport(Glibc)
internal import Glibc
#endif

extension AMQPConnection {
    /// The CA bundles of the common Linux distributions, for TLS without an explicit CA file.
    static let systemCABundles = ["/etc/ssl/certs/ca-certificates.crt", "/etc/pki/tls/certs/ca-bundle.crt", "/etc/ssl/cert.pem"]

    /// A TCP or TLS socket owned by `state` (destroyed with it).
    static func makeSocket(_ state: amqp_connection_state_t, endpoint: AMQPEndpoint, tls: AMQPTLSOptions) throws(AMQPError) -> OpaquePointer {
        guard endpoint.usesTLS else {
            guard let socket = amqp_tcp_socket_new(state) else {
                throw AMQPError(.library(status: AMQP_STATUS_NO_MEMORY.rawValue), operation: "create socket", message: "out of memory")
            }
            return socket
        }
        guard let socket = amqp_ssl_socket_new(state) else {
            throw AMQPError(.library(status: AMQP_STATUS_SSL_ERROR.rawValue), operation: "create TLS socket", message: "OpenSSL could not create a context")
        }
        amqp_ssl_socket_set_verify_peer(socket, tls.verifyPeer ? 1 : 0)
        amqp_ssl_socket_set_verify_hostname(socket, tls.verifyHostname ? 1 : 0)
        if let caFile = tls.caFile ?? systemCABundles.first(where: { access($0, R_OK) == 0 }) {
            try AMQPError.check(amqp_ssl_socket_set_cacert(socket, caFile), "load CA file \(caFile)")
        }
        switch (tls.certificateFile, tls.keyFile) {
        case (let certificate?, let key?):
            try AMQPError.check(amqp_ssl_socket_set_key(socket, certificate, key), "load client certificate \(certificate) and key \(key)")
        case (nil, nil):
            break
        default:
            throw AMQPError(.invalidArgument, operation: "configure TLS", message: "a client certificate needs both a certificate file and a key file")
        }
        return socket
    }

    /// Logs in with PLAIN (or EXTERNAL), announcing the connection name and the capabilities we handle.
    func logIn(_ settings: Settings) throws(AMQPError) {
        let arena = CArena()
        var properties = arena.table([
            "connection_name": .string(settings.connectionName),
            // Without consumer_cancel_notify the broker silently drops a consumer whose queue is deleted.
            "capabilities": .table(["consumer_cancel_notify": true, "connection.blocked": true, "authentication_failure_close": true]),
        ])
        let heartbeat = Int32(clamping: max(settings.heartbeatSeconds, 0))
        let reply = withExtendedLifetime(arena) {
            if settings.tls.usesExternalAuthentication && endpoint.usesTLS {
                CRabbitMQ_login_external(state, endpoint.virtualHost, 0, AMQP_DEFAULT_FRAME_SIZE, heartbeat, &properties, endpoint.user)
            } else {
                CRabbitMQ_login_plain(state, endpoint.virtualHost, 0, AMQP_DEFAULT_FRAME_SIZE, heartbeat, &properties, endpoint.user, endpoint.password)
            }
        }
        try AMQPError.check(reply: reply, "log in to \(endpoint)")
    }
}
