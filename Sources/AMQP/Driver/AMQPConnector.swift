internal import NIOCore
internal import NIOPosix
internal import Transport
internal import TLS

/// Makes the socket (and TLS) under an ``AMQPConnection``: the real one connects with NIO; tests hand
/// the handler an embedded channel instead.
protocol AMQPConnector: Sendable {
    /// A channel to `endpoint` on `loop` with `handler` last in its pipeline (after TLS for `amqps`).
    func connect(to endpoint: AMQPEndpoint, tls: TLSContext?, timeout: Duration, handler: AMQPConnection, on loop: any EventLoop) -> EventLoopFuture<any Channel>
}

/// TCP (TCP_NODELAY, as NIO sets it) and, for `amqps`, the project's TLS over memory BIOs.
struct SocketConnector: AMQPConnector {
    func connect(to endpoint: AMQPEndpoint, tls: TLSContext?, timeout: Duration, handler: AMQPConnection, on loop: any EventLoop) -> EventLoopFuture<any Channel> {
        let tlsConnection: TLSConnection?
        do {
            tlsConnection = try tls.map { try TLSConnection(context: $0, serverName: endpoint.host) }
        } catch {
            return loop.makeFailedFuture(error)
        }
        let box = NIOLoopBound((tlsConnection, handler), eventLoop: loop)
        return ClientBootstrap(group: loop)
            .connectTimeout(.nanoseconds(timeout.nanoseconds))
            .channelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    let (tlsConnection, handler) = box.value
                    if let tlsConnection { try channel.pipeline.syncOperations.addHandler(TLSClientHandler(connection: tlsConnection)) }
                    try channel.pipeline.syncOperations.addHandler(handler)
                }
            }
            .connect(host: endpoint.host, port: endpoint.port)
    }
}
