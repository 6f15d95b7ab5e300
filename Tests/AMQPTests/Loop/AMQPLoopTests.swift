import NIOCore
import NIOEmbedded
import Testing
import TestSupport
@testable import AMQP

/// The AMQP client on an event loop with no socket: an in-memory channel plays the broker with frames
/// a real RabbitMQ sent (Tests/Fixtures/amqp, `scripts/record-amqp.py`), and the loop's clock drives
/// heartbeats and timers. What the client writes is read back frame by frame.
@Suite("AMQP client on the event loop: handshake, confirms, returns, consumers, heartbeats, close (recorded broker frames, no socket)")
struct AMQPLoopTests {
    static let versions = ["4.0", "3.10"]

    /// Connects a harness's client through the scripted handshake.
    static func connected(_ harness: LoopHarness) async throws -> NIOAsyncTestingChannel {
        async let connecting: Void = harness.client.connect()
        let connection = try await harness.connection()
        try await harness.handshake(connection)
        try await connecting
        return connection
    }

    @Test("the handshake: PLAIN, the broker's lower frame_max and heartbeat in tune-ok, then channel 1 in confirm mode and channel 2", arguments: versions)
    func handshake(version: String) async throws {
        let harness = try LoopHarness(version: version)
        async let connecting: Void = harness.client.connect()
        let connection = try await harness.connection()
        let header = try await harness.nextFrame(on: connection)
        #expect(header.payload == ByteBuffer(string: "AMQP header"), "the protocol header comes first")
        try await harness.send([harness.broker.method(MethodID.connectionStart)], to: connection)
        let startOk = try #require(await harness.expect([MethodID.connectionStartOk], on: connection).first)
        let login = Array(startOk.payload.readableBytesView)
        #expect(login.contains(subsequence: [0] + Array("guest".utf8) + [0] + Array("guest".utf8)), "PLAIN: \\0user\\0password")
        #expect(login.contains(subsequence: Array("PLAIN".utf8)) && login.contains(subsequence: Array("connection_name".utf8)))
        #expect(startOk.payload.readableBytes + AMQPFrame.overhead <= AMQPFrame.minimumSize, "start-ok fits the frame size allowed before tune")
        // The broker proposes a smaller frame and a shorter heartbeat than the client asks for: both win.
        try await harness.send([harness.broker.method(MethodID.connectionTune)], to: connection) { payload in
            payload.setInteger(UInt32(8192), at: payload.readerIndex + 6)
            payload.setInteger(UInt16(5), at: payload.readerIndex + 10)
        }
        let tuned = try await harness.expect([MethodID.connectionTuneOk, MethodID.connectionOpen], on: connection)
        let tuneOk = tuned[0].payload
        #expect(tuneOk.getInteger(at: tuneOk.readerIndex + 4, as: UInt16.self) == 2, "two channels")
        #expect(tuneOk.getInteger(at: tuneOk.readerIndex + 6, as: UInt32.self) == 8192)
        #expect(tuneOk.getInteger(at: tuneOk.readerIndex + 10, as: UInt16.self) == 5)
        try await harness.send([harness.broker.method(MethodID.connectionOpenOk)], to: connection)
        #expect(try await harness.expect([MethodID.channelOpen], on: connection)[0].channel == 1)
        try await harness.send([harness.broker.method(MethodID.channelOpenOk)], to: connection, channel: 1)
        #expect(try await harness.expect([MethodID.confirmSelect], on: connection)[0].channel == 1)
        try await harness.send([harness.broker.method(MethodID.confirmSelectOk)], to: connection, channel: 1)
        #expect(try await harness.expect([MethodID.channelOpen], on: connection)[0].channel == 2)
        #expect(!harness.client.isConnected, "not before the topology channel is open")
        try await harness.send([harness.broker.method(MethodID.channelOpenOk)], to: connection, channel: 2)
        try await connecting
        #expect(harness.client.isConnected && harness.client.generation == 1)
        #expect(harness.client.serverVersion?.description.hasPrefix(version) == true, "\(String(describing: harness.client.serverVersion))")
        await harness.shutdown()
    }

    @Test("EXTERNAL: with a client certificate the login names the mechanism and sends no password")
    func externalLogin() async throws {
        let harness = try LoopHarness { options in
            options.endpoints = [AMQPEndpoint(host: "localhost", port: 5671, user: "", password: "not-sent", usesTLS: true)]
            options.tls = AMQPTLSOptions(caFile: Fixtures.path("tls/ca.pem"), usesExternalAuthentication: true)
        }
        async let connecting: Void = harness.client.connect()
        let connection = try await harness.connection()
        _ = try await harness.nextFrame(on: connection)
        // RabbitMQ offers EXTERNAL once its auth_mechanism_ssl plugin runs: the recorded offer, rewritten.
        try await harness.send([harness.broker.method(MethodID.connectionStart)], to: connection) { payload in
            let bytes = Array(payload.readableBytesView)
            let offered = Array("AMQPLAIN".utf8)
            guard let at = (0...(bytes.count - offered.count)).first(where: { Array(bytes[$0..<($0 + offered.count)]) == offered }) else { return }
            payload.setBytes(Array("EXTERNAL".utf8), at: payload.readerIndex + at)
        }
        let startOk = try #require(await harness.expect([MethodID.connectionStartOk], on: connection).first)
        let login = Array(startOk.payload.readableBytesView)
        #expect(login.contains(subsequence: Array("EXTERNAL".utf8)))
        #expect(!login.contains(subsequence: Array("not-sent".utf8)))
        try await harness.send([harness.broker.method(MethodID.connectionTune)], to: connection)
        try await harness.expect([MethodID.connectionTuneOk, MethodID.connectionOpen], on: connection)
        try await harness.send([harness.broker.method(MethodID.connectionOpenOk)], to: connection)
        try await harness.expect([MethodID.channelOpen], on: connection)
        try await harness.send([harness.broker.method(MethodID.channelOpenOk)], to: connection, channel: 1)
        try await harness.expect([MethodID.confirmSelect], on: connection)
        try await harness.send([harness.broker.method(MethodID.confirmSelectOk)], to: connection, channel: 1)
        try await harness.expect([MethodID.channelOpen], on: connection)
        try await harness.send([harness.broker.method(MethodID.channelOpenOk)], to: connection, channel: 2)
        try await connecting
        await harness.shutdown()
    }

    @Test("EXTERNAL asked of a broker that does not offer it: connect() fails naming what it offers")
    func externalNotOffered() async throws {
        let harness = try LoopHarness { options in
            options.endpoints = [AMQPEndpoint(host: "localhost", port: 5671, usesTLS: true)]
            options.tls = AMQPTLSOptions(caFile: Fixtures.path("tls/ca.pem"), usesExternalAuthentication: true)
        }
        async let connecting: Void = harness.client.connect()
        let connection = try await harness.connection()
        _ = try await harness.nextFrame(on: connection)
        try await harness.send([harness.broker.method(MethodID.connectionStart)], to: connection)
        var error: AMQPError?
        do { try await connecting } catch let failure { error = failure as? AMQPError }
        #expect(error?.code == .invalidArgument)
        #expect(error?.message.hasPrefix("the broker offers AMQPLAIN, PLAIN") == true && error?.message.hasSuffix(", not EXTERNAL") == true, "\(String(describing: error))")
        await harness.shutdown()
    }

    @Test("a refused login ends connect() with the broker's code, at once")
    func refusedLogin() async throws {
        let harness = try LoopHarness()
        async let connecting: Void = harness.client.connect(retryingFor: .seconds(300))
        let connection = try await harness.connection()
        _ = try await harness.nextFrame(on: connection)
        try await harness.send([harness.broker.method(MethodID.connectionStart)], to: connection)
        try await harness.expect([MethodID.connectionStartOk], on: connection)
        var close = ByteBuffer()
        try FrameEncoder().method(.connectionClose(replyCode: 403, replyText: "ACCESS_REFUSED - Login was refused"), channel: 0, into: &close)
        try await harness.send(close, to: connection)
        var error: AMQPError?
        do {
            try await connecting
        } catch let failure {
            error = failure as? AMQPError
        }
        #expect(error?.code == .brokerClosed(replyCode: 403))
        #expect(harness.connectionCount == 1, "a refused login is not retried")
        await harness.shutdown()
    }

    @Test("confirms: a multiple ack settles every publish up to it, a nack its own", arguments: versions)
    func confirms(version: String) async throws {
        let harness = try LoopHarness(version: version)
        let connection = try await Self.connected(harness)
        let client = harness.client
        let outcomes = Task {
            try await withThrowingTaskGroup(of: (Int, AMQPPublishOutcome).self) { group in
                for index in 1...3 {
                    group.addTask { (index, try await client.publish(exchange: "", routingKey: "jobs", message: .text("\(index)"), mandatory: false)) }
                    // One at a time, so the broker's numbering is the loop's order.
                    try await harness.expect([MethodID.basicPublish], on: connection)
                }
                return try await group.reduce(into: [Int: AMQPPublishOutcome]()) { $0[$1.0] = $1.1 }
            }
        }
        try await Condition.wait("three publishes unconfirmed") { client.unconfirmedCount == 3 }
        try await harness.send([harness.broker.method(MethodID.basicAck)], to: connection, channel: 1) { payload in
            payload.setInteger(UInt64(2), at: payload.readerIndex + 4)
            payload.setInteger(UInt8(1), at: payload.readerIndex + 12)
        }
        try await harness.send([harness.broker.method(MethodID.basicNack)], to: connection, channel: 1) { payload in
            payload.setInteger(UInt64(3), at: payload.readerIndex + 4)
            payload.setInteger(UInt8(0), at: payload.readerIndex + 12)
        }
        let settled = try await outcomes.value
        #expect(settled == [1: AMQPPublishOutcome.confirmed, 2: .confirmed, 3: .nacked])
        #expect(client.unconfirmedCount == 0)
        await harness.shutdown()
    }

    @Test("a return marks its publish by the sequence number it carried; the ack after it settles it as returned", arguments: versions)
    func returns(version: String) async throws {
        let harness = try LoopHarness(version: version)
        let connection = try await Self.connected(harness)
        let message = AMQPMessage.text("nowhere")
        async let outcome = harness.client.publish(exchange: "", routingKey: "nowhere", message: message, mandatory: true)
        try await harness.expect([MethodID.basicPublish], on: connection)
        // The broker returns the message as published, header and all: the client's own encoding.
        var published = ByteBuffer()
        try message.body.withUnsafeBytes { body in
            try FrameEncoder(frameMax: 131_072).publish(
                channel: 1, exchange: "", routingKey: "nowhere", mandatory: true, properties: message.properties,
                extraHeader: (PublishConfirms<Void>.sequenceHeader, .int(1)), body: body, into: &published
            )
        }
        let returned = try harness.broker.method(MethodID.basicReturn)
        var content = published
        content.moveReaderIndex(forwardBy: AMQPFrame.overhead + Int(published.getInteger(at: 3, as: UInt32.self)!))
        try await harness.send(RecordedBroker.bytes([returned], channel: 1), to: connection)
        try await harness.send(content, to: connection)
        try await harness.send([harness.broker.method(MethodID.basicAck)], to: connection, channel: 1) { payload in
            payload.setInteger(UInt64(1), at: payload.readerIndex + 4)
            payload.setInteger(UInt8(0), at: payload.readerIndex + 12)
        }
        #expect(try await outcome == .returned(replyCode: 312, replyText: "NO_ROUTE"))
        await harness.shutdown()
    }

    /// Starts a consumer through the scripted replies; `consumeOk` picks the recorded tag.
    static func consuming(_ harness: LoopHarness, _ connection: NIOAsyncTestingChannel, consumeOk: Int = 0) async throws -> AsyncStream<AMQPDelivery> {
        async let stream = harness.client.consume(queue: "jobs", prefetch: 10)
        #expect(try await harness.expect([MethodID.queueDeclare], on: connection)[0].channel == 2, "the queue is checked on the topology channel")
        try await harness.send([harness.broker.method(MethodID.queueDeclareOk)], to: connection, channel: 2)
        try await harness.expect([MethodID.basicQos], on: connection)
        try await harness.send([harness.broker.method(MethodID.basicQosOk)], to: connection, channel: 1)
        try await harness.expect([MethodID.basicConsume], on: connection)
        try await harness.send([harness.broker.method(MethodID.basicConsumeOk, occurrence: consumeOk)], to: connection, channel: 1)
        return try await stream
    }

    @Test("deliveries as RabbitMQ sends them: headers, a body over two frames, an empty body; acks of one tick coalesce into one", arguments: versions)
    func deliveries(version: String) async throws {
        let harness = try LoopHarness(version: version)
        let connection = try await Self.connected(harness)
        let stream = try await Self.consuming(harness, connection)
        var frames: [RecordedBroker.Frame] = []
        for index in 0..<3 { frames += try harness.broker.content(MethodID.basicDeliver, occurrence: index) }
        try await harness.send(frames, to: connection, channel: 1)
        var received: [AMQPDelivery] = []
        for await delivery in stream {
            received.append(delivery)
            if received.count == 3 { break }
        }
        #expect(received.map(\.deliveryTag) == [1, 2, 3])
        #expect(received[0].message.properties.messageID == "job-1" && received[0].message.text == #"{"id":"job-1"}"#)
        #expect(received[0].message.properties.headers["nested"] == .table(["list": .array([.int(1), .string("two"), .bool(true)])]))
        #expect(received[0].message.properties.headers[PublishConfirms<Void>.sequenceHeader] == nil, "the client's own sequence header is taken off")
        #expect(received[1].message.body == Array(repeating: UInt8(ascii: "x"), count: 10_000), "two body frames make one body")
        #expect(received[2].message.body.isEmpty)
        // Acks asked for in one tick of the loop go out as one frame.
        let (client, settled) = (harness.client, received)
        try await harness.loop.executeInContext { for delivery in settled { client.onLoop.ack(delivery) } }
        let ack = try #require(await harness.expect([MethodID.basicAck], on: connection).first)
        #expect(ack.payload.getInteger(at: ack.payload.readerIndex + 4, as: UInt64.self) == 3)
        #expect(ack.payload.getInteger(at: ack.payload.readerIndex + 12, as: UInt8.self) == 1, "one multiple ack for the three")
        await harness.shutdown()
    }

    @Test("close: the consumer is cancelled first, the last acks follow, then the connection closes")
    func closeOrder() async throws {
        let harness = try LoopHarness()
        let connection = try await Self.connected(harness)
        let stream = try await Self.consuming(harness, connection)
        try await harness.send(harness.broker.content(MethodID.basicDeliver), to: connection, channel: 1)
        var iterator = stream.makeAsyncIterator()
        let delivery = try #require(await iterator.next())
        let closing = Task { await harness.client.close() }
        try await harness.expect([MethodID.basicCancel], on: connection)
        // Acked while the cancel is under way: it goes out before the close.
        await harness.client.ack(delivery)
        try await harness.expect([MethodID.basicAck], on: connection)
        try await harness.send([harness.broker.method(MethodID.basicCancelOk)], to: connection, channel: 1)
        #expect(await iterator.next() == nil, "the stream ends with the cancel")
        try await harness.expect([MethodID.connectionClose], on: connection)
        try await harness.send([harness.broker.method(MethodID.connectionCloseOk)], to: connection, channel: 0)
        await closing.value
        #expect(!harness.client.isConnected)
        await harness.shutdown()
    }

    @Test("a consumer the broker cancels is started again after a backoff, on the same connection")
    func brokerCancel() async throws {
        let harness = try LoopHarness()
        let connection = try await Self.connected(harness)
        _ = try await Self.consuming(harness, connection, consumeOk: 1)
        #expect(harness.client.isConsuming)
        try await harness.send([harness.broker.method(MethodID.basicCancel)], to: connection, channel: 1)
        try await Condition.wait("the consumer noted as gone") { !harness.client.isConsuming }
        await harness.advance(by: .milliseconds(150))
        try await harness.expect([MethodID.queueDeclare], on: connection)
        #expect(harness.connectionCount == 1 && harness.client.generation == 1)
        await harness.shutdown()
    }

    @Test("heartbeats: one is sent when nothing else was; a broker silent for two intervals is gone, and the client reconnects")
    func heartbeats() async throws {
        let harness = try LoopHarness { $0.heartbeatSeconds = 2 }
        async let connecting: Void = harness.client.connect()
        let connection = try await harness.connection()
        try await harness.handshake(connection) { payload in payload.setInteger(UInt16(60), at: payload.readerIndex + 10) }
        try await connecting
        // The handshake's own frames count as traffic for the first interval; the next has none.
        await harness.advance(by: .seconds(1))
        #expect(try await harness.wroteNothing(on: connection))
        await harness.advance(by: .seconds(1))
        let beat = try await harness.nextFrame(on: connection)
        #expect(beat.kind == .heartbeat && beat.channel == 0 && beat.payload.readableBytes == 0)
        // The broker says something every second: no failure however long.
        for _ in 0..<6 {
            try await harness.send(RecordedBroker.bytes([RecordedBroker.Frame(kind: .heartbeat, channel: 0, payload: ByteBuffer())]), to: connection)
            await harness.advance(by: .seconds(1))
        }
        #expect(harness.client.isConnected)
        // Then silence: four ticks of one second (two intervals) later it is lost.
        await harness.advance(by: .seconds(3))
        #expect(harness.client.isConnected)
        await harness.advance(by: .seconds(1))
        try await Condition.wait("the silent connection dropped") { !harness.client.isConnected }
        await harness.advance(by: .milliseconds(150))
        _ = try await harness.connection(1)
        await harness.shutdown()
    }
}

extension Array where Element: Equatable {
    func contains(subsequence: [Element]) -> Bool {
        guard subsequence.count <= count else { return false }
        return (0...(count - subsequence.count)).contains { Array(self[$0..<($0 + subsequence.count)]) == subsequence }
    }
}
