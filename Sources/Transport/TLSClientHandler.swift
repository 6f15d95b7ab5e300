public import NIOCore
public import TLS

/// TLS for a protocol that is not HTTP/2 (AMQP): a channel handler between the socket and the
/// protocol's handler, driving a ``TLSConnection`` over memory BIOs.
///
/// The handlers after it see `channelActive` only once the handshake completed, so they start talking
/// when the connection is private. Plaintext they write is encrypted on `flush`, in as few records as
/// the writes allow; what is read is decrypted into one buffer per read. A TLS failure is raised as a
/// ``TLSError`` through `errorCaught`.
public final class TLSClientHandler: ChannelDuplexHandler {
    public typealias InboundIn = ByteBuffer
    public typealias InboundOut = ByteBuffer
    public typealias OutboundIn = ByteBuffer
    public typealias OutboundOut = ByteBuffer

    private let tls: TLSConnection
    private var handshakeComplete = false
    private var failed = false
    /// Plaintext written before the last flush, encrypted together.
    private var pending: ByteBuffer?

    public init(connection: TLSConnection) {
        tls = connection
    }

    public func channelActive(context: ChannelHandlerContext) {
        advanceHandshake(context: context)
    }

    public func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard !failed else { return }
        let ciphertext = unwrapInboundIn(data)
        ciphertext.withUnsafeReadableBytes { tls.receiveCiphertext($0) }
        if !handshakeComplete {
            advanceHandshake(context: context)
            guard handshakeComplete else { return }
        }
        readPlaintext(context: context)
    }

    public func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        var plaintext = unwrapOutboundIn(data)
        if pending == nil {
            pending = plaintext
        } else {
            pending!.writeBuffer(&plaintext)
        }
        promise?.succeed()
    }

    public func flush(context: ChannelHandlerContext) {
        guard let plaintext = pending, !failed else { return }
        pending = nil
        do {
            try plaintext.withUnsafeReadableBytes { try tls.writePlaintext($0) }
            writeCiphertext(context: context)
        } catch {
            fail(error, context: context)
        }
    }

    public func close(context: ChannelHandlerContext, mode: CloseMode, promise: EventLoopPromise<Void>?) {
        if mode == .all, handshakeComplete, !failed {
            tls.close()
            writeCiphertext(context: context)
        }
        context.close(mode: mode, promise: promise)
    }

    private func advanceHandshake(context: ChannelHandlerContext) {
        do {
            handshakeComplete = try tls.continueHandshake()
            writeCiphertext(context: context)
            if handshakeComplete { context.fireChannelActive() }
        } catch {
            writeCiphertext(context: context)
            fail(error, context: context)
        }
    }

    private func readPlaintext(context: ChannelHandlerContext) {
        var plaintext = context.channel.allocator.buffer(capacity: 16_384)
        var closed = false
        do {
            while true {
                var read: Int?
                try plaintext.writeWithUnsafeMutableBytes(minimumWritableBytes: 16_384) { buffer in
                    read = try tls.readPlaintext(into: buffer)
                    return read ?? 0
                }
                guard let count = read else {
                    closed = true
                    break
                }
                if count == 0 { break }
            }
        } catch {
            fail(error, context: context)
            return
        }
        // A TLS record may carry alerts or session tickets and no application data.
        if plaintext.readableBytes > 0 { context.fireChannelRead(wrapInboundOut(plaintext)) }
        writeCiphertext(context: context)
        if closed { context.close(promise: nil) }
    }

    private func writeCiphertext(context: ChannelHandlerContext) {
        let count = tls.pendingCiphertextCount
        guard count > 0 else { return }
        var buffer = context.channel.allocator.buffer(capacity: count)
        buffer.writeWithUnsafeMutableBytes(minimumWritableBytes: count) { tls.readCiphertext(into: $0) }
        context.writeAndFlush(wrapOutboundOut(buffer), promise: nil)
    }

    private func fail(_ error: any Error, context: ChannelHandlerContext) {
        guard !failed else { return }
        failed = true
        context.fireErrorCaught(error)
        context.close(promise: nil)
    }
}
