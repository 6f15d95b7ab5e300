import Foundation
public import Logging
import NIOCore
import NIOHTTP1
import NIOPosix
public import Prometheus
public import ServiceLifecycle
public import Worker

/// The HTTP endpoint operators scrape and probe: `GET /metrics` (Prometheus text), `/health/live`
/// (the process answers) and `/health/ready` (200 only while ``Readiness/ready``; the JSON says why).
public final class OperationsServer: Service {
    let host: String
    let port: Int
    let registry: PrometheusCollectorRegistry
    let readiness: @Sendable () -> Readiness
    let onScrape: @Sendable () -> Void
    let logger: Logger

    /// - Parameter onScrape: runs before each `/metrics` answer, to set gauges read on demand.
    public init(
        host: String, port: Int, registry: PrometheusCollectorRegistry, logger: Logger,
        onScrape: @escaping @Sendable () -> Void = {}, readiness: @escaping @Sendable () -> Readiness
    ) {
        self.host = host
        self.port = port
        self.registry = registry
        self.readiness = readiness
        self.onScrape = onScrape
        self.logger = logger
    }

    public func run() async throws {
        let channel = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .childChannelInitializer { [registry, readiness, onScrape] channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.configureHTTPServerPipeline()
                    try channel.pipeline.syncOperations.addHandler(OperationsHandler(registry: registry, readiness: readiness, onScrape: onScrape))
                }
            }
            .bind(host: host, port: port)
            .get()
        logger.notice("metrics and health endpoint listening", metadata: ["address": "\(host):\(channel.localAddress?.port ?? port)"])
        // Serve until the service group shuts down; probes keep working while the worker drains.
        try? await gracefulShutdown()
        try? await channel.close()
    }
}

/// Answers one HTTP/1.1 request at a time on a connection.
final class OperationsHandler: ChannelInboundHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias OutboundOut = HTTPServerResponsePart

    let registry: PrometheusCollectorRegistry
    let readiness: @Sendable () -> Readiness
    let onScrape: @Sendable () -> Void
    private var path = ""

    init(registry: PrometheusCollectorRegistry, readiness: @escaping @Sendable () -> Readiness, onScrape: @escaping @Sendable () -> Void) {
        self.registry = registry
        self.readiness = readiness
        self.onScrape = onScrape
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head(let head): path = head.uri.split(separator: "?").first.map(String.init) ?? head.uri
        case .body: break
        case .end:
            let (status, contentType, body) = answer()
            var headers = HTTPHeaders([("content-type", contentType), ("content-length", String(body.count))])
            headers.add(name: "cache-control", value: "no-store")
            context.write(wrapOutboundOut(.head(HTTPResponseHead(version: .http1_1, status: status, headers: headers))), promise: nil)
            context.write(wrapOutboundOut(.body(.byteBuffer(context.channel.allocator.buffer(bytes: body)))), promise: nil)
            context.writeAndFlush(wrapOutboundOut(.end(nil)), promise: nil)
        }
    }

    private func answer() -> (HTTPResponseStatus, String, [UInt8]) {
        switch path {
        case "/metrics":
            onScrape()
            return (.ok, "text/plain; version=0.0.4", MetricCatalog.withHelp(registry.emitToBuffer()))
        case "/health/live":
            return (.ok, "application/json", Array(#"{"live":true}"#.utf8))
        case "/health/ready":
            let state = readiness()
            let body = (try? JSONEncoder().encode(state)).map(Array.init) ?? []
            return (state.ready ? .ok : .serviceUnavailable, "application/json", body)
        default:
            return (.notFound, "text/plain", Array("try /metrics, /health/live or /health/ready\n".utf8))
        }
    }
}
