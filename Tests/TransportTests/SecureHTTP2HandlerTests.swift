import HTTP2
import NIOCore
import NIOEmbedded
import TLS
import Testing
import TestSupport
import Transport

/// The NIO driver of a TLS + HTTP/2 connection in an `EmbeddedChannel`, against a server pipe in
/// memory: no socket, no event-loop thread.
@Suite("Secure HTTP/2 handler")
struct SecureHTTP2HandlerTests {
    /// What the handler told its owner.
    final class Recorder: SecureHTTP2HandlerDelegate {
        var readyCount = 0
        var events: [HTTP2Event] = []
        var closes: [String] = []

        func handlerDidBecomeReady(_ handler: SecureHTTP2Handler) { readyCount += 1 }
        func handler(_ handler: SecureHTTP2Handler, didReceive events: [HTTP2Event]) { self.events += events }
        func handler(_ handler: SecureHTTP2Handler, didCloseWith error: (any Error)?) { closes.append(error.map { "\($0)" } ?? "clean") }
    }

    /// A client handler in an embedded channel and the server pipe it talks to.
    struct Connection {
        let channel = EmbeddedChannel()
        let handler: SecureHTTP2Handler
        let server: SecureHTTP2Pipe
        let recorder = Recorder()

        init() throws {
            let pair = try SecureHTTP2PipeTests.Pair()
            handler = SecureHTTP2Handler(pipe: pair.client)
            server = pair.server
            handler.delegate = recorder
            try channel.pipeline.syncOperations.addHandler(handler)
        }

        /// Connects (the handler sends its ClientHello) and moves bytes until neither side has any.
        func open() throws {
            try channel.connect(to: SocketAddress(ipAddress: "127.0.0.1", port: 443)).wait()
            try exchange()
        }

        /// Writes from the client the channel holds, as separate socket writes.
        func clientWrites() throws -> [ByteBuffer] {
            var writes: [ByteBuffer] = []
            while let buffer = try channel.readOutbound(as: ByteBuffer.self) { writes.append(buffer) }
            return writes
        }

        /// Feeds `writes` to the server, and the server's answer back to the client as one read.
        func deliver(_ writes: [ByteBuffer]) throws {
            for write in writes {
                _ = try write.withUnsafeReadableBytes { try server.receive($0) }
            }
            try server.flushSession()
            let answer = SecureHTTP2PipeTests.Pair.ciphertext(of: server)
            guard !answer.isEmpty else { return }
            try channel.writeInbound(channel.allocator.buffer(bytes: answer))
        }

        /// Ends the channel, whose pipeline and handler hold each other until then (LeakSanitizer saw
        /// the pair outlive the tests that left the channel open).
        func finish() {
            _ = try? channel.finish(acceptAlreadyClosed: true)
        }

        /// Moves bytes both ways until neither side has anything to send.
        func exchange() throws {
            for _ in 0..<20 {
                channel.embeddedEventLoop.run()
                let writes = try clientWrites()
                try server.flushSession()
                if writes.isEmpty && server.pendingCiphertextCount == 0 { return }
                try deliver(writes)
            }
            Issue.record("still exchanging bytes after 20 rounds")
        }
    }

    @Test("connecting: the handshake and the prefaces complete, and the owner hears of it once")
    func ready() throws {
        let connection = try Connection()
        defer { connection.finish() }
        try connection.open()
        #expect(connection.recorder.readyCount == 1)
        #expect(connection.handler.session != nil)
        #expect(connection.server.session != nil)
    }

    @Test("flushes asked for in one tick are one socket write, and the server reads every request")
    func coalescedFlush() throws {
        let connection = try Connection()
        defer { connection.finish() }
        try connection.open()
        let session = try #require(connection.handler.session)
        for index in 0..<10 {
            _ = try session.submitRequest(headers: SecureHTTP2PipeTests.request(index), body: Array("{}".utf8))
            connection.handler.scheduleFlush()
        }
        #expect(try connection.clientWrites().isEmpty, "nothing written before the tick ends")
        connection.channel.embeddedEventLoop.run()
        let writes = try connection.clientWrites()
        #expect(writes.count == 1, "\(writes.count) writes for 10 flushes in one tick")
        try connection.deliver(writes)
        let requests = try #require(connection.server.session).takeEvents().filter { if case .message = $0 { true } else { false } }
        #expect(requests.count == 10)
    }

    @Test("a response comes to the owner as a message on its stream")
    func response() throws {
        let connection = try Connection()
        defer { connection.finish() }
        try connection.open()
        let session = try #require(connection.handler.session)
        let streamID = try session.submitRequest(headers: SecureHTTP2PipeTests.request(1), body: Array("{}".utf8))
        connection.handler.flushNow()
        try connection.deliver(connection.clientWrites())
        let server = try #require(connection.server.session)
        _ = server.takeEvents()
        try server.submitResponse(streamID: streamID, headers: [HTTP2Header(":status", "200"), HTTP2Header("apns-id", "x")], body: [])
        try connection.deliver([])
        let messages = connection.recorder.events.compactMap { event -> Int32? in if case .message(let id, _, _) = event { id } else { nil } }
        #expect(messages == [streamID])
    }

    @Test("the peer's close_notify closes the channel, and the owner hears a clean close")
    func peerCloses() throws {
        let connection = try Connection()
        defer { connection.finish() }
        try connection.open()
        connection.server.tls.close()
        try connection.deliver([])
        connection.channel.embeddedEventLoop.run()
        #expect(!connection.channel.isActive)
        #expect(connection.recorder.closes == ["clean"])
    }

    @Test("bytes that are not TLS close the channel, and the owner hears why")
    func garbage() throws {
        let connection = try Connection()
        defer { connection.finish() }
        try connection.channel.connect(to: SocketAddress(ipAddress: "127.0.0.1", port: 443)).wait()
        _ = try connection.clientWrites()
        try connection.channel.writeInbound(connection.channel.allocator.buffer(bytes: Array("HTTP/1.1 400 Bad Request\r\n\r\n".utf8)))
        connection.channel.embeddedEventLoop.run()
        #expect(!connection.channel.isActive)
        #expect(connection.recorder.closes.count == 1)
        #expect(connection.recorder.closes.first != "clean")
        #expect(connection.recorder.readyCount == 0)
    }
}
