import APNsCore
import NIOCore

/// Opens a `CONNECT` tunnel through an HTTP proxy before the connection's own handler (TLS, HTTP/2)
/// sees the channel: it holds back `channelActive`, writes the request, reads the proxy's answer,
/// and on a 2xx removes itself and lets `channelActive` through, so what follows runs as if
/// connected to Apple directly. Anything else closes the channel with a ``ProxyTunnelError`` that
/// says what the proxy said; a proxy that does not answer within `timeout` is an error too.
final class ProxyTunnelHandler: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = ByteBuffer
    typealias InboundOut = ByteBuffer

    private let proxy: HTTPProxy
    private let targetHost: String
    private let targetPort: Int
    private let timeout: TimeAmount
    private var response: [UInt8] = []
    private var deadline: Scheduled<Void>?
    private var established = false
    /// Reported through `onFailure` (set by the connection) rather than thrown, so the connection's
    /// own error path names the proxy.
    private let onFailure: (ProxyTunnelError) -> Void

    init(proxy: HTTPProxy, targetHost: String, targetPort: Int, timeout: TimeAmount, onFailure: @escaping (ProxyTunnelError) -> Void) {
        self.proxy = proxy
        self.targetHost = targetHost
        self.targetPort = targetPort
        self.timeout = timeout
        self.onFailure = onFailure
    }

    func channelActive(context: ChannelHandlerContext) {
        let request = proxy.connectRequest(to: targetHost, port: targetPort)
        context.writeAndFlush(NIOAny(context.channel.allocator.buffer(string: request)), promise: nil)
        // The task runs on this event loop, where the handler and its context live.
        let bound = NIOLoopBound((handler: self, context: context), eventLoop: context.eventLoop)
        deadline = context.eventLoop.scheduleTask(in: timeout) {
            let (handler, context) = bound.value
            handler.fail(context: context, .noAnswer(proxy: handler.proxyName, seconds: handler.timeout.nanoseconds / 1_000_000_000))
        }
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        var buffer = unwrapInboundIn(data)
        guard !established else {
            context.fireChannelRead(data)
            return
        }
        response += buffer.readBytes(length: buffer.readableBytes) ?? []
        // An answer is a status line and headers up to an empty line; 16 KiB without one is no proxy.
        guard let end = headerEnd() else {
            if response.count > 16_384 { fail(context: context, .malformed(proxy: proxyName)) }
            return
        }
        let head = String(decoding: response[..<end], as: UTF8.self)
        let statusLine = head.split(separator: "\r\n", maxSplits: 1).first.map(String.init) ?? ""
        let parts = statusLine.split(separator: " ", maxSplits: 2)
        guard parts.count >= 2, parts[0].hasPrefix("HTTP/1."), let status = Int(parts[1]) else {
            fail(context: context, .malformed(proxy: proxyName))
            return
        }
        guard (200..<300).contains(status) else {
            fail(context: context, .refused(proxy: proxyName, status: status, reason: parts.count > 2 ? String(parts[2]) : ""))
            return
        }
        established = true
        deadline?.cancel()
        let leftover = Array(response[(end + 4)...])
        response = []
        context.fireChannelActive()
        if !leftover.isEmpty { context.fireChannelRead(NIOAny(context.channel.allocator.buffer(bytes: leftover))) }
        context.pipeline.syncOperations.removeHandler(context: context, promise: nil)
    }

    func channelInactive(context: ChannelHandlerContext) {
        deadline?.cancel()
        if established {
            context.fireChannelInactive()
        } else {
            fail(context: context, .closed(proxy: proxyName))
        }
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        if established { context.fireErrorCaught(error) } else { fail(context: context, .closed(proxy: proxyName)) }
    }

    private var proxyName: String { "\(proxy.host):\(proxy.port)" }

    private func headerEnd() -> Int? {
        guard response.count >= 4 else { return nil }
        for index in 0...(response.count - 4) where response[index] == 13 && response[index + 1] == 10 && response[index + 2] == 13 && response[index + 3] == 10 {
            return index
        }
        return nil
    }

    /// Reports once, then closes; the connection hears the close through `onFailure` first.
    private var failed = false
    private func fail(context: ChannelHandlerContext, _ error: ProxyTunnelError) {
        guard !failed, !established else { return }
        failed = true
        deadline?.cancel()
        onFailure(error)
        context.close(promise: nil)
    }
}

/// Why a tunnel through the proxy did not open. Never carries the proxy's credentials.
public enum ProxyTunnelError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The proxy answered the CONNECT with a status other than 2xx.
    case refused(proxy: String, status: Int, reason: String)
    /// The proxy did not answer within the connect timeout.
    case noAnswer(proxy: String, seconds: Int64)
    /// The proxy closed the connection before answering.
    case closed(proxy: String)
    /// What came back was not an HTTP answer.
    case malformed(proxy: String)

    public var description: String {
        switch self {
        case .refused(let proxy, let status, let reason) where status == 407 || status == 401:
            // 407 is the standard answer; some proxies (tinyproxy) answer a CONNECT with 401.
            "proxy \(proxy) requires authentication (\(status) \(reason)): check the proxy user and password"
        case .refused(let proxy, 403, _):
            "proxy \(proxy) refused the tunnel to APNs (403 Forbidden): the proxy's rules do not allow this host or port"
        case .refused(let proxy, let status, let reason):
            "proxy \(proxy) answered CONNECT with \(status) \(reason)"
        case .noAnswer(let proxy, let seconds):
            "proxy \(proxy) did not answer CONNECT within \(seconds) s"
        case .closed(let proxy):
            "proxy \(proxy) closed the connection before the tunnel opened"
        case .malformed(let proxy):
            "proxy \(proxy) did not answer CONNECT with HTTP"
        }
    }
}
