import Logging
import NIOConcurrencyHelpers
import NIOCore
import NIOEmbedded
import TestSupport
import TLS
@testable import AMQP

/// An ``AMQPClient`` on a testing event loop, with no socket: each connection it opens is an in-memory
/// channel this harness plays the broker on, with frames a real RabbitMQ sent (``RecordedBroker``).
/// Time is the loop's: ``advance(by:)`` moves the client's clock and fires its timers together.
final class LoopHarness: Sendable {
    /// A frame the client wrote, decoded as far as the tests look.
    struct ClientFrame: CustomStringConvertible {
        var kind: AMQPFrame.Kind
        var channel: UInt16
        var payload: ByteBuffer
        var method: UInt32? { kind == .method ? payload.getInteger(at: payload.readerIndex, as: UInt32.self) : nil }
        var description: String { method.map { "0x\(String($0, radix: 16)) on \(channel)" } ?? "\(kind) on \(channel)" }
    }

    let loop = NIOAsyncTestingEventLoop()
    let broker: RecordedBroker
    let client: AMQPClient
    private let connector: ScriptedConnector
    private let pending = NIOLockedValueBox<[ObjectIdentifier: [ClientFrame]]>([:])

    init(version: String = "4.0", configure: (inout AMQPClientOptions) -> Void = { _ in }) throws {
        broker = try RecordedBroker(version: version)
        connector = ScriptedConnector(loop: loop)
        var options = AMQPClientOptions(endpoints: [AMQPEndpoint(host: "127.0.0.1", port: 5672)])
        options.initialReconnectDelay = .milliseconds(100)
        options.maximumReconnectDelay = .milliseconds(100)
        configure(&options)
        var logger = Logger(label: "amqp-loop-test")
        logger.logLevel = .critical
        let (loop, origin, start) = (loop, ContinuousClock.now, loop.now)
        client = AMQPClient(options: options, logger: logger, eventLoop: loop, connector: connector, now: {
            origin + .nanoseconds(loop.now.uptimeNanoseconds - start.uptimeNanoseconds)
        })
    }

    /// The `index`-th connection the client opened, once it has.
    func connection(_ index: Int = 0) async throws -> NIOAsyncTestingChannel {
        try await Condition.wait("connection \(index) to be opened") { self.connector.channels.withLockedValue { $0.count > index } }
        return connector.channels.withLockedValue { $0[index] }
    }

    /// How many connections the client opened so far.
    var connectionCount: Int { connector.channels.withLockedValue { $0.count } }

    /// The next frame the client wrote on `connection` (a write may hold several).
    func nextFrame(on connection: NIOAsyncTestingChannel) async throws -> ClientFrame {
        let key = ObjectIdentifier(connection)
        while true {
            if let frame = pending.withLockedValue({ $0[key]?.isEmpty == false ? $0[key]!.removeFirst() : nil }) { return frame }
            var written = try await nextWrite(on: connection)
            if written.getBytes(at: written.readerIndex, length: 4) == Array("AMQP".utf8) {
                written.moveReaderIndex(forwardBy: 8)
                pending.withLockedValue { $0[key, default: []].append(ClientFrame(kind: .method, channel: 0, payload: ByteBuffer(string: "AMQP header"))) }
            }
            var frames: [ClientFrame] = []
            while let frame = try Self.nextFrame(in: &written) { frames.append(frame) }
            pending.withLockedValue { $0[key, default: []].append(contentsOf: frames) }
        }
    }

    /// The next buffer the client wrote; fails after ten seconds without one.
    private func nextWrite(on connection: NIOAsyncTestingChannel) async throws -> ByteBuffer {
        var written: ByteBuffer?
        try await Condition.wait("the client to write", timeout: .seconds(10), interval: .milliseconds(1), asking: {
            // Tasks the client queued for the end of the tick (its flush) run when the loop is run.
            await self.loop.run()
            written = try await connection.readOutbound(as: ByteBuffer.self)
            return written != nil
        })
        return written!
    }

    /// Whether the client wrote nothing since the last frame read.
    func wroteNothing(on connection: NIOAsyncTestingChannel) async throws -> Bool {
        let key = ObjectIdentifier(connection)
        await loop.run()
        return try await connection.readOutbound(as: ByteBuffer.self) == nil && pending.withLockedValue { $0[key]?.isEmpty ?? true }
    }

    /// The next frames the client wrote, expected to be these methods (content frames are skipped).
    @discardableResult
    func expect(_ methods: [UInt32], on connection: NIOAsyncTestingChannel) async throws -> [ClientFrame] {
        var seen: [ClientFrame] = []
        while seen.count < methods.count {
            let frame = try await nextFrame(on: connection)
            if frame.kind == .method { seen.append(frame) }
        }
        let ids = seen.map(\.method)
        if ids != methods { throw TestFailure("expected \(methods.map { "0x\(String($0, radix: 16))" }), the client wrote \(seen)") }
        return seen
    }

    /// Plays the broker's side of opening a connection; `tune` may change the broker's proposal.
    func handshake(_ connection: NIOAsyncTestingChannel, tune: (inout ByteBuffer) -> Void = { _ in }) async throws {
        let header = try await nextFrame(on: connection)
        guard header.payload == ByteBuffer(string: "AMQP header") else { throw TestFailure("the client began with \(header)") }
        try await send([broker.method(MethodID.connectionStart)], to: connection)
        try await expect([MethodID.connectionStartOk], on: connection)
        try await send([broker.method(MethodID.connectionTune)], to: connection, patch: tune)
        try await expect([MethodID.connectionTuneOk, MethodID.connectionOpen], on: connection)
        try await send([broker.method(MethodID.connectionOpenOk)], to: connection)
        try await expect([MethodID.channelOpen], on: connection)
        try await send([broker.method(MethodID.channelOpenOk)], to: connection, channel: 1)
        try await expect([MethodID.confirmSelect], on: connection)
        try await send([broker.method(MethodID.confirmSelectOk)], to: connection, channel: 1)
        try await expect([MethodID.channelOpen], on: connection)
        try await send([broker.method(MethodID.channelOpenOk)], to: connection, channel: 2)
    }

    /// Sends recorded frames to the client (on `channel`, or their own), each payload patched first.
    func send(_ frames: [RecordedBroker.Frame], to connection: NIOAsyncTestingChannel, channel: UInt16? = nil, patch: (inout ByteBuffer) -> Void = { _ in }) async throws {
        try await connection.writeInbound(RecordedBroker.bytes(frames, channel: channel, patch: patch))
    }

    /// Raw bytes to the client, as one read.
    func send(_ bytes: ByteBuffer, to connection: NIOAsyncTestingChannel) async throws {
        try await connection.writeInbound(bytes)
    }

    /// Ends what the test opened: every connection closed (the client hears a lost socket), the client
    /// closed, the loop shut down, so nothing outlives the test (LeakSanitizer checks it).
    func shutdown() async {
        for channel in connector.channels.withLockedValue({ $0 }) {
            try? await channel.close()
        }
        await client.close()
        await loop.shutdownGracefully()
    }

    /// Moves the client's clock and the loop's timers forward together.
    func advance(by duration: Duration) async {
        await loop.advanceTime(by: .nanoseconds(duration.nanoseconds))
    }

    private static func nextFrame(in buffer: inout ByteBuffer) throws -> ClientFrame? {
        guard buffer.readableBytes >= AMQPFrame.overhead,
              let type = buffer.readInteger(as: UInt8.self), let kind = AMQPFrame.Kind(rawValue: type),
              let channel = buffer.readInteger(as: UInt16.self), let size = buffer.readInteger(as: UInt32.self),
              let payload = buffer.readSlice(length: Int(size)), buffer.readInteger(as: UInt8.self) == AMQPFrame.endMarker
        else {
            if buffer.readableBytes == 0 { return nil }
            throw TestFailure("the client wrote something that is not a frame")
        }
        return ClientFrame(kind: kind, channel: channel, payload: payload)
    }
}

/// Hands the client in-memory channels instead of sockets, and keeps them for the test.
struct ScriptedConnector: AMQPConnector {
    let loop: NIOAsyncTestingEventLoop
    let channels = NIOLockedValueBox<[NIOAsyncTestingChannel]>([])

    func connect(to endpoint: AMQPEndpoint, tls: TLSContext?, timeout: Duration, handler: AMQPConnection, on eventLoop: any EventLoop) -> EventLoopFuture<any Channel> {
        let channel = NIOAsyncTestingChannel(loop: loop)
        channels.withLockedValue { $0.append(channel) }
        return channel.pipeline.addHandler(handler).flatMap {
            channel.connect(to: try! SocketAddress(ipAddress: "127.0.0.1", port: 5672))
        }.map { channel }
    }
}
