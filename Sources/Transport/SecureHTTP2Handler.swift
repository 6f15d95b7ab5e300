public import HTTP2
public import NIOCore
import TLS
#if canImport(Glibc)
import Glibc
#endif

/// What a connection's owner (the APNs client connection, or a mock server connection) hears from the
/// socket. Every call happens on the channel's event loop.
public protocol SecureHTTP2HandlerDelegate: AnyObject {
    /// TLS is up, ALPN chose h2, and the HTTP/2 session exists.
    func handlerDidBecomeReady(_ handler: SecureHTTP2Handler)
    /// The session reported `events` after processing bytes.
    func handler(_ handler: SecureHTTP2Handler, didReceive events: [HTTP2Event])
    /// The socket closed; `error` says why when it was not a normal close.
    func handler(_ handler: SecureHTTP2Handler, didCloseWith error: (any Error)?)
}

/// The thin NIO driver: moves bytes between the socket and a ``SecureHTTP2Pipe`` and tells its delegate.
///
/// Outgoing frames are written when a read completes and when the owner asks with ``scheduleFlush()``,
/// which coalesces every submission made in the same event-loop tick into one write.
public final class SecureHTTP2Handler: ChannelInboundHandler {
    public typealias InboundIn = ByteBuffer
    public typealias OutboundOut = ByteBuffer

    public let pipe: SecureHTTP2Pipe
    public weak var delegate: (any SecureHTTP2HandlerDelegate)?
    private var context: ChannelHandlerContext?
    private var flushScheduled = false
    private var failure: (any Error)?
    private var readsPaused = false

    public init(pipe: SecureHTTP2Pipe) {
        self.pipe = pipe
    }

    /// The HTTP/2 session, once ready.
    public var session: HTTP2Session? { pipe.session }

    public func handlerAdded(context: ChannelHandlerContext) {
        self.context = context
    }

    public func handlerRemoved(context: ChannelHandlerContext) {
        self.context = nil
    }

    public func channelActive(context: ChannelHandlerContext) {
        do {
            try pipe.start()
            flushNow()
        } catch {
            fail(error)
        }
        context.fireChannelActive()
    }

    public func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let buffer = unwrapInboundIn(data)
        do {
            let becameReady = try buffer.withUnsafeReadableBytes { try pipe.receive($0) }
            if becameReady { delegate?.handlerDidBecomeReady(self) }
            deliverEvents()
            if pipe.peerClosed { context.close(promise: nil) }
        } catch {
            fail(error)
        }
    }

    public func channelReadComplete(context: ChannelHandlerContext) {
        flushNow()
        context.fireChannelReadComplete()
    }

    public func channelInactive(context: ChannelHandlerContext) {
        delegate?.handler(self, didCloseWith: failure)
        delegate = nil
        context.fireChannelInactive()
    }

    public func errorCaught(context: ChannelHandlerContext, error: any Error) {
        fail(error)
    }

    /// Writes what the session has queued before the event loop's next tick ends; many calls in one
    /// tick cost one write.
    public func scheduleFlush() {
        guard !flushScheduled, let context else { return }
        flushScheduled = true
        context.eventLoop.assumeIsolated().execute { [self] in
            flushScheduled = false
            flushNow()
        }
    }

    /// Moves session frames through TLS to the socket now.
    public func flushNow() {
        guard let context else { return }
        do {
            try pipe.flushSession()
            deliverEvents()
            let pending = pipe.pendingCiphertextCount
            guard pending > 0 else { return }
            var buffer = context.channel.allocator.buffer(capacity: pending)
            buffer.writeWithUnsafeMutableBytes(minimumWritableBytes: pending) { pipe.readCiphertext(into: $0) }
            context.writeAndFlush(wrapOutboundOut(buffer), promise: nil)
        } catch {
            fail(error)
        }
    }

    /// Closes politely: TLS close_notify after what is queued, then the socket.
    public func close() {
        guard let context else { return }
        flushNow()
        pipe.tls.close()
        flushNow()
        context.close(promise: nil)
    }

    /// Closes with a TCP reset and no TLS goodbye, as a crashing peer or a middlebox would.
    public func closeAbruptly() {
        guard let context else { return }
        let channel = context.channel
        guard let provider = channel as? any SocketOptionProvider else {
            channel.close(promise: nil)
            return
        }
        // SO_LINGER with a zero timeout makes close() send RST instead of FIN.
        provider.setSoLinger(linger(l_onoff: 1, l_linger: 0)).whenComplete { _ in channel.close(promise: nil) }
    }

    /// Stops reading from the socket for `delay` (the peer sees a slow reader: its writes back up).
    public func pauseReads(for delay: TimeAmount) {
        guard let context, !readsPaused else { return }
        readsPaused = true
        let channel = context.channel
        let loop = context.eventLoop.assumeIsolated()
        _ = channel.setOption(ChannelOptions.autoRead, value: false)
        loop.scheduleTask(in: delay) { [self] in
            readsPaused = false
            channel.setOption(ChannelOptions.autoRead, value: true).whenComplete { _ in channel.read() }
        }
    }

    private func deliverEvents() {
        guard let session = pipe.session else { return }
        session.drainEvents { delegate?.handler(self, didReceive: $0) }
    }

    private func fail(_ error: any Error) {
        if failure == nil { failure = error }
        context?.close(promise: nil)
    }
}
