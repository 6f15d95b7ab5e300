import Testing
@testable import HTTP2

@Suite("HTTP/2 sessions wired together in memory")
struct HTTP2SessionTests {
    @Test("a request and its response cross with headers and bodies intact, then the stream closes cleanly")
    func roundTrip() throws {
        let pair = try SessionPair()
        let body = Array(#"{"aps":{"alert":"hi"}}"#.utf8)
        let stream = try pair.client.submitRequest(headers: SessionPair.request(extra: [HTTP2Header("apns-topic", "com.example.app")]), body: body)
        try pair.exchange()
        let request = try #require(pair.requests.first)
        #expect(request.streamID == stream)
        #expect(request.body == body)
        #expect(request.headers.value(of: "apns-topic") == "com.example.app")
        #expect(request.headers.value(of: ":path") == "/3/device/abcd")

        try pair.server.submitResponse(streamID: stream, headers: [HTTP2Header(":status", "400")], body: Array(#"{"reason":"BadTopic"}"#.utf8))
        try pair.exchange()
        #expect(pair.responses[stream]?.headers.value(of: ":status") == "400")
        #expect(pair.responses[stream]?.body == Array(#"{"reason":"BadTopic"}"#.utf8))
        #expect(pair.clientClosures[stream] == .noError)
        #expect(pair.client.openStreamCount == 0)
        #expect(pair.server.openStreamCount == 0)
    }

    @Test("events that arise while draining (an answer sent from inside) wait for the next drain, and none is lost or repeated")
    func eventsDuringDrain() throws {
        let pair = try SessionPair()
        let stream = try pair.client.submitRequest(headers: SessionPair.request(), body: [1, 2, 3])
        var toServer: [UInt8] = []
        try pair.client.send { toServer += $0 }
        try toServer.withUnsafeBytes { try pair.server.receive($0) }

        var first: [HTTP2Event] = []
        try pair.server.drainEvents { events in
            first = events
            // Sending the answer ends the stream on the server's side, and its close is an event of its own.
            try pair.server.submitResponse(streamID: stream, headers: [HTTP2Header(":status", "200")], body: [])
            try pair.server.send { _ in }
        }
        // The client's SETTINGS, then its request; the close is not among them.
        #expect(first.count == 2)
        guard case .message(stream, _, [1, 2, 3])? = first.last else {
            Issue.record("expected the request, got \(first)")
            return
        }
        var second: [HTTP2Event] = []
        pair.server.drainEvents { second = $0 }
        guard case .streamClosed(stream, .noError)? = second.first, second.count == 1 else {
            Issue.record("expected the stream's close, got \(second)")
            return
        }
        var calls = 0
        pair.server.drainEvents { _ in calls += 1 }
        #expect(calls == 0)
    }

    @Test("a closed stream's slot serves the next stream empty: nothing of one exchange reaches the next")
    func slotsAreReused() throws {
        let pair = try SessionPair()
        let large = [UInt8](repeating: 7, count: 5_000)
        var first: [Int32] = []
        for body in [[1, 2], large, [3]] as [[UInt8]] {
            first.append(try pair.client.submitRequest(headers: SessionPair.request(extra: [HTTP2Header("apns-topic", "first")]), body: body))
        }
        try pair.exchange()
        for stream in first { try pair.server.submitResponse(streamID: stream, headers: [HTTP2Header(":status", "400")], body: large) }
        try pair.exchange()
        #expect(pair.client.openStreamCount == 0)
        #expect(pair.server.openStreamCount == 0)

        let second = try pair.client.submitRequest(headers: SessionPair.request(), body: [9])
        let third = try pair.client.submitRequest(headers: SessionPair.request(), body: [])
        try pair.exchange()
        let requests = Dictionary(uniqueKeysWithValues: pair.requests.map { ($0.streamID, $0) })
        #expect(requests[second]?.body == [9])
        #expect(requests[third]?.body.count == 0)
        #expect(requests[second]?.headers.value(of: "apns-topic") == nil)
        for stream in [second, third] { try pair.server.submitResponse(streamID: stream, headers: [HTTP2Header(":status", "200")], body: []) }
        try pair.exchange()
        #expect(pair.responses[second]?.body.count == 0)
        #expect(pair.responses[third]?.headers.value(of: ":status") == "200")
        #expect(pair.responses[third]?.body.count == 0)
        // Five streams, never more than three open at once: three slots each side.
        #expect(pair.client.slots.count == 3)
        #expect(pair.server.slots.count == 3)
        #expect(pair.client.openStreamCount == 0)
    }

    @Test("never-indexed fields arrive marked as such; ordinary ones do not")
    func neverIndexed() throws {
        let pair = try SessionPair()
        let headers = SessionPair.request(extra: [HTTP2Header("authorization", "bearer x.y.z", neverIndexed: true), HTTP2Header("apns-topic", "t")])
        for _ in 0..<2 { _ = try pair.client.submitRequest(headers: headers, body: [1]) }
        try pair.exchange()
        #expect(pair.requests.count == 2)
        for request in pair.requests {
            let flags = Dictionary(request.headers.map { ($0.name, $0.neverIndexed) }, uniquingKeysWith: { a, _ in a })
            #expect(flags[":path"] == true)
            #expect(flags["authorization"] == true)
            #expect(flags["apns-topic"] == false)
        }
    }

    @Test("bodies larger than a frame and the initial window arrive whole", arguments: [16_384, 16_385, 70_000])
    func largeBodies(size: Int) throws {
        let pair = try SessionPair()
        let body = (0..<size).map { UInt8(truncatingIfNeeded: $0 * 31) }
        let stream = try pair.client.submitRequest(headers: SessionPair.request(), body: body)
        try pair.exchange()
        #expect(pair.requests.first?.body == body)
        try pair.server.submitResponse(streamID: stream, headers: [HTTP2Header(":status", "200")], body: body)
        try pair.exchange()
        #expect(pair.responses[stream]?.body == body)
    }

    @Test("the server's MAX_CONCURRENT_STREAMS reaches the client, and changes when the server changes it")
    func concurrencySettings() throws {
        let pair = try SessionPair(serverSettings: HTTP2Settings(maxConcurrentStreams: 1), assumedPeerMaxConcurrentStreams: 1)
        try pair.exchange()
        #expect(pair.clientEvents.contains(.remoteSettings(maxConcurrentStreams: 1)))
        #expect(pair.client.remoteMaxConcurrentStreams == 1)
        try pair.server.submitSettings(HTTP2Settings(maxConcurrentStreams: 1000))
        try pair.exchange()
        #expect(pair.clientEvents.last == .remoteSettings(maxConcurrentStreams: 1000))
        #expect(pair.client.remoteMaxConcurrentStreams == 1000)
    }

    @Test("GOAWAY: streams above last-stream-id close as REFUSED_STREAM, those below still get answers")
    func goAway() throws {
        let pair = try SessionPair()
        let ids = try (0..<4).map { _ in try pair.client.submitRequest(headers: SessionPair.request(), body: [1]) }
        try pair.exchange()
        #expect(pair.requests.count == 4)
        try pair.server.submitGoAway(lastStreamID: ids[1], errorCode: .noError, debugData: Array(#"{"reason":"Shutdown"}"#.utf8))
        try pair.exchange()
        #expect(pair.clientEvents.contains(.goAway(lastStreamID: ids[1], errorCode: .noError, debugData: Array(#"{"reason":"Shutdown"}"#.utf8))))
        #expect(pair.clientClosures[ids[2]] == .refusedStream)
        #expect(pair.clientClosures[ids[3]] == .refusedStream)
        #expect(pair.clientClosures[ids[0]] == nil)
        for id in ids.prefix(2) { try pair.server.submitResponse(streamID: id, headers: [HTTP2Header(":status", "200")], body: []) }
        try pair.exchange()
        #expect(pair.responses[ids[0]] != nil && pair.responses[ids[1]] != nil)
    }

    @Test("a REFUSED_STREAM reset is reported as a reset and a refused closure")
    func refusedStream() throws {
        let pair = try SessionPair()
        let id = try pair.client.submitRequest(headers: SessionPair.request(), body: [1])
        try pair.exchange()
        try pair.server.resetStream(id, errorCode: .refusedStream)
        try pair.exchange()
        #expect(pair.clientEvents.contains(.streamReset(streamID: id, errorCode: .refusedStream)))
        #expect(pair.clientClosures[id] == .refusedStream)
    }

    @Test("a client reset (CANCEL) closes the stream on both sides")
    func cancel() throws {
        let pair = try SessionPair()
        let id = try pair.client.submitRequest(headers: SessionPair.request(), body: [1])
        try pair.exchange()
        try pair.client.resetStream(id, errorCode: .cancel)
        try pair.exchange()
        #expect(pair.clientClosures[id] == .cancel)
        #expect(pair.serverEvents.contains(.streamReset(streamID: id, errorCode: .cancel)))
        #expect(pair.server.openStreamCount == 0)
    }

    @Test("an answer held past the client's reset is dropped and leaves no stream state behind")
    func answerAfterReset() throws {
        let pair = try SessionPair()
        let id = try pair.client.submitRequest(headers: SessionPair.request(), body: [1])
        try pair.exchange()
        try pair.client.resetStream(id, errorCode: .cancel)
        try pair.exchange()
        try pair.server.submitResponse(streamID: id, headers: [HTTP2Header(":status", "200")], body: [1, 2, 3])
        #expect(pair.server.openStreamCount == 0, "the late answer made state for a stream that is gone")
        try pair.exchange()
        #expect(pair.server.openStreamCount == 0)
        #expect(pair.responses[id] == nil)
    }

    @Test("a PING is acknowledged with its payload")
    func ping() throws {
        let pair = try SessionPair()
        try pair.client.submitPing(0x0102_0304_0506_0708)
        try pair.exchange()
        #expect(pair.clientEvents.contains(.pingAcknowledged(0x0102_0304_0506_0708)))
    }

    @Test("a thousand concurrent streams all complete")
    func manyStreams() throws {
        let pair = try SessionPair(serverSettings: HTTP2Settings(maxConcurrentStreams: 1000))
        try pair.exchange()
        let ids = try (0..<1000).map { i in try pair.client.submitRequest(headers: SessionPair.request(path: "/3/device/\(i)"), body: [UInt8(i & 0xFF)]) }
        try pair.exchange()
        #expect(pair.requests.count == 1000)
        for request in pair.requests {
            try pair.server.submitResponse(streamID: request.streamID, headers: [HTTP2Header(":status", "200")], body: [])
        }
        try pair.exchange()
        #expect(Set(pair.responses.keys) == Set(ids))
    }

    @Test("bytes that are not HTTP/2 are a protocol failure")
    func garbage() throws {
        let server = try HTTP2Session(role: .server)
        let error = #expect(throws: HTTP2Error.self) {
            try Array("GET / HTTP/1.1\r\nHost: x\r\n\r\n".utf8).withUnsafeBytes { try server.receive($0) }
        }
        #expect(error?.code != nil)
        _ = server.takeEvents()
    }
}
