import APNsCore
import HTTP2
import Logging
import NIOCore
import NIOPosix
import TLS
import Transport

/// One long-lived TLS + HTTP/2 connection to APNs for one credential.
///
/// `@unchecked Sendable`: the pool holds references from any thread, but every mutable property is read
/// and written only on ``eventLoop``; the entry points callable from elsewhere (``execute(_:)``,
/// ``retire(reason:)``) hop onto it first.
final class APNsConnection: @unchecked Sendable {
    enum Phase { case connecting, ready, draining, closed }

    let id: Int
    let eventLoop: any EventLoop
    let credential: APNsCredential
    let endpoint: APNsEndpoint
    let configuration: APNsClientConfiguration
    let statistics: APNsClientStatistics
    var logger: Logger
    /// Where the pool hears about this connection; called on the event loop.
    let report: @Sendable (APNsConnection, ConnectionEvent) -> Void

    let handler: SecureHTTP2Handler
    var phase = Phase.connecting
    var streamLimit: StreamLimit
    var tokenState: ConnectionTokenState?
    var pending: [Int32: PendingStream] = [:]
    var health = HealthCheck()
    var timeoutSweep: Scheduled<Void>?
    var lastTokenAgeReport = NIODeadline.uptimeNanoseconds(0)
    /// `host:port`, built once for every request's `:authority`.
    let authority: String

    /// A request in flight, with what its continuation needs. The continuation is unsafe (unchecked) to
    /// spare an allocation per request; it is resumed exactly once because a stream leaves ``pending``
    /// before its continuation is resumed, and only streams in ``pending`` are ever resumed.
    struct PendingStream {
        let request: NotificationRequest
        let token: ProviderToken?
        let hasRetriedAfterExpiry: Bool
        let continuation: UnsafeContinuation<StreamOutcome, Never>
        /// When the request times out. Checked by a sweep rather than a timer per request: cancelling
        /// one of a thousand scheduled tasks costs a search of NIO's timer heap, on every answer.
        let deadline: NIODeadline
    }

    init(
        id: Int,
        eventLoop: any EventLoop,
        tls: TLSConnection,
        credential: APNsCredential,
        endpoint: APNsEndpoint,
        configuration: APNsClientConfiguration,
        statistics: APNsClientStatistics,
        logger: Logger,
        report: @escaping @Sendable (APNsConnection, ConnectionEvent) -> Void
    ) {
        self.id = id
        self.eventLoop = eventLoop
        self.credential = credential
        self.endpoint = endpoint
        self.configuration = configuration
        self.statistics = statistics
        self.report = report
        authority = endpoint.description
        var logger = logger
        logger[metadataKey: "apns.connection"] = "\(id)"
        self.logger = logger
        streamLimit = StreamLimit(usesTokens: credential.usesTokens, cap: configuration.maximumStreamsPerConnection)
        if case .token(let source) = credential.authentication {
            tokenState = ConnectionTokenState(policy: source.policy)
        }
        // Until the server's SETTINGS arrive, assume one stream: that is all a token connection gets anyway.
        handler = SecureHTTP2Handler(pipe: SecureHTTP2Pipe(tls: tls) {
            try HTTP2Session(role: .client, assumedPeerMaxConcurrentStreams: 1)
        })
        handler.delegate = self
    }

    /// Opens a connection on `group`: one DNS lookup, TCP, TLS, HTTP/2. The new connection is handed to
    /// `register` first, then reports `.ready` or `.closed` to `report` when the attempt ends.
    static func open(
        id: Int,
        group: any EventLoopGroup,
        context: TLSContext,
        credential: APNsCredential,
        endpoint: APNsEndpoint,
        configuration: APNsClientConfiguration,
        statistics: APNsClientStatistics,
        logger: Logger,
        register: (APNsConnection) -> Void,
        report: @escaping @Sendable (APNsConnection, ConnectionEvent) -> Void
    ) throws {
        let eventLoop = group.next()
        let connection = APNsConnection(
            id: id, eventLoop: eventLoop, tls: try TLSConnection(context: context, serverName: endpoint.host),
            credential: credential, endpoint: endpoint, configuration: configuration, statistics: statistics,
            logger: logger, report: report
        )
        // Registered before connecting, so the pool knows the connection before any event from it.
        register(connection)
        statistics.record(credential: credential.name, .connectAttempt)
        ClientBootstrap(group: eventLoop)
            .connectTimeout(TimeAmount(configuration.connectTimeout))
            .channelOption(.tcpOption(.tcp_nodelay), value: 1)
            .channelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.addHandler(connection.handler)
                }
            }
            .connect(host: endpoint.host, port: endpoint.port)
            .whenFailure { error in
                connection.eventLoop.execute { connection.connectFailed(error) }
            }
    }

    /// Runs `request` on this connection and waits for how it ended.
    func execute(_ request: NotificationRequest) async -> StreamOutcome {
        await withUnsafeContinuation { continuation in
            eventLoop.execute { self.start(request, hasRetriedAfterExpiry: false, continuation: continuation) }
        }
    }

    /// Stops taking new streams; the connection closes once its streams are done.
    func retire(reason: String) {
        eventLoop.execute { self.drain(reason: reason) }
    }

    func drain(reason: String) {
        guard phase == .ready || phase == .connecting else { return }
        logger.info("connection draining", metadata: ["reason": "\(reason)"])
        phase = .draining
        report(self, .draining(reason: reason))
        closeIfIdle()
    }

    func closeIfIdle() {
        if phase == .draining && pending.isEmpty { handler.close() }
    }

    private func connectFailed(_ error: any Error) {
        guard phase == .connecting else { return }
        phase = .closed
        report(self, .closed(error: error, wasReady: false))
    }
}
