import APNsCore
import HTTP2
import Logging
import NIOCore
import NIOPosix
import TLS
import Transport

/// One long-lived TLS + HTTP/2 connection to APNs for one credential.
///
/// The decisions are ``APNsConnectionStateMachine``'s; this class feeds it the socket's events and
/// carries out its actions: submitting streams, resuming callers, timers, telling the pool.
///
/// `@unchecked Sendable`: the pool holds references from any thread, but every mutable property is read
/// and written only on ``eventLoop``; the entry points callable from elsewhere (``execute(_:then:)``,
/// ``retire(reason:)``) hop onto it first.
final class APNsConnection: @unchecked Sendable {
    /// The machine knows each request by its slot in ``requests``.
    typealias Machine = APNsConnectionStateMachine<Int>

    /// A request and the caller waiting for its outcome, which the state machine hands back in
    /// exactly one resume action: `answered` runs once, on the loop.
    struct PendingRequest {
        let request: OutgoingRequest
        let answered: @Sendable (StreamOutcome) -> Void
    }

    let id: Int
    let eventLoop: any EventLoop
    let credential: APNsCredential
    let endpoint: APNsEndpoint
    let statistics: APNsClientStatistics
    var logger: Logger
    /// Where the pool hears about this connection; called on the event loop.
    let report: @Sendable (APNsConnection, ConnectionEvent) -> Void
    let handler: SecureHTTP2Handler
    /// `host:port`, built once for every request's `:authority`.
    let authority: String

    var machine: Machine
    var requests = RequestSlots<PendingRequest>()
    var timers = Timers()
    /// The header block of the push being submitted: the connection's template, then the push's own
    /// fields (``RequestHeaders``), kept between requests for its storage.
    var headerBlock: HTTP2HeaderBlock

    /// The scheduled tasks the machine asked for, cancelled when the socket closes so a closed
    /// connection is not kept alive by them.
    struct Timers {
        var sweep: Scheduled<Void>?
        var health: Scheduled<Void>?
        var pingTimeout: Scheduled<Void>?

        mutating func cancelAll() {
            for timer in [sweep, health, pingTimeout] { timer?.cancel() }
            self = Timers()
        }
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
        self.statistics = statistics
        self.report = report
        authority = endpoint.description
        headerBlock = RequestHeaders.template(authority: authority)
        var logger = logger
        logger[metadataKey: "apns.connection"] = "\(id)"
        self.logger = logger
        var tokenSource: ProviderTokenSource?
        if case .token(let source) = credential.authentication { tokenSource = source }
        let timing = Machine.Timing(
            requestTimeout: TimeAmount(configuration.requestTimeout),
            pingInterval: TimeAmount(configuration.pingInterval),
            pingTimeout: TimeAmount(configuration.pingTimeout)
        )
        machine = Machine(timing: timing, tokenSource: tokenSource, maximumStreams: configuration.maximumStreamsPerConnection)
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
        // Through a proxy the socket goes to the proxy, and a CONNECT tunnel to Apple's host opens
        // before TLS starts; the proxy resolves the host name.
        let proxy = (credential.proxy ?? configuration.proxy).flatMap { $0.applies(to: endpoint.host) ? $0 : nil }
        ClientBootstrap(group: eventLoop)
            .connectTimeout(TimeAmount(configuration.connectTimeout))
            .channelOption(.tcpOption(.tcp_nodelay), value: 1)
            .channelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    if let proxy {
                        let tunnel = ProxyTunnelHandler(
                            proxy: proxy, targetHost: endpoint.host, targetPort: endpoint.port, timeout: TimeAmount(configuration.connectTimeout)
                        ) { error in
                            connection.run(connection.machine.connectFailed(APNsSendError(.connectFailed, .notProcessed, "cannot reach \(endpoint): \(error)")))
                        }
                        try channel.pipeline.syncOperations.addHandler(tunnel)
                    }
                    try channel.pipeline.syncOperations.addHandler(connection.handler)
                }
            }
            .connect(host: proxy?.host ?? endpoint.host, port: proxy?.port ?? endpoint.port)
            .whenFailure { error in
                let failure = sendError(for: error, endpoint: endpoint)
                let described = proxy.map { APNsSendError(failure.code, failure.outcome, "\(failure.message) (through proxy \($0))") } ?? failure
                connection.eventLoop.execute { connection.run(connection.machine.connectFailed(described)) }
            }
    }

    /// Runs `request` on this connection; `answered` hears how it ended, on the connection's loop.
    /// A caller already on the loop submits at once; others hop onto it. Measured with `apns-bench
    /// client` on one connection: callers on Swift's cooperative pool, whose answers hop back, reach
    /// about three quarters of the rate of callers on the loop.
    func execute(_ request: OutgoingRequest, then answered: @escaping @Sendable (StreamOutcome) -> Void) {
        if eventLoop.inEventLoop {
            start(PendingRequest(request: request, answered: answered))
        } else {
            eventLoop.execute { self.start(PendingRequest(request: request, answered: answered)) }
        }
    }

    /// Takes a request on the loop: its slot, then the machine's decision.
    private func start(_ pending: consuming PendingRequest) {
        let slot = requests.insert(pending)
        run(machine.requestArrived(slot, now: .now()))
    }

    /// Stops taking new streams; the connection closes once its streams are done.
    func retire(reason: String) {
        eventLoop.execute { self.run(self.machine.retire(reason: reason)) }
    }

    /// How a socket's end reads to callers waiting for a connection.
    static func sendError(for error: (any Error)?, endpoint: APNsEndpoint) -> APNsSendError {
        if let tlsError = error as? TLSError {
            return APNsSendError(.tlsFailed, .notProcessed, "TLS with \(endpoint) failed: \(tlsError)")
        }
        return APNsSendError(.connectFailed, .notProcessed, "cannot connect to \(endpoint): \(error.map { "\($0)" } ?? "closed during setup")")
    }
}
