import Testing
@testable import HTTP2

/// A session gathers the header block arriving now in one array of its own and hands it to its stream
/// when the block ends: these pin down that every message still gets its own stream's block, however
/// the bytes arrive.
@Suite("HTTP/2 sessions: received header blocks reach their own messages")
struct HTTP2HeaderBlockReceptionTests {
    @Test("a request that ends with its headers gets an answer with a body, and no stream is left open")
    func requestWithoutBodyAnswerWithBody() throws {
        let pair = try SessionPair()
        let stream = try pair.client.submitRequest(headers: SessionPair.request(extra: [HTTP2Header("apns-topic", "t")]), body: [])
        try pair.exchange()
        let request = try #require(pair.requests.first)
        #expect(request.body.isEmpty)
        #expect(request.headers.value(of: "apns-topic") == "t")

        let answer = Array(#"{"reason":"BadDeviceToken"}"#.utf8)
        try pair.server.submitResponse(streamID: stream, headers: [HTTP2Header(":status", "400")], body: answer)
        try pair.exchange()
        #expect(pair.responses[stream]?.headers.value(of: ":status") == "400")
        #expect(pair.responses[stream]?.body == answer, "the server's stream state, made when the request's block ended, carries the body")
        #expect(pair.client.openStreamCount == 0)
        #expect(pair.server.openStreamCount == 0)
    }

    @Test("answers sent in another order than their requests, some with bodies, each carry their own stream's headers")
    func answersOutOfOrder() throws {
        let pair = try SessionPair()
        let ids = try (0..<8).map { i in try pair.client.submitRequest(headers: SessionPair.request(path: "/3/device/\(i)"), body: [UInt8(i)]) }
        try pair.exchange()
        #expect(pair.requests.count == 8)
        for request in pair.requests {
            let index = try #require(request.body.first)
            #expect(request.headers.value(of: ":path") == "/3/device/\(index)")
        }
        for (turn, stream) in ids.reversed().enumerated() {
            let body: [UInt8] = turn.isMultiple(of: 2) ? Array("body of \(stream)".utf8) : []
            try pair.server.submitResponse(streamID: stream, headers: [HTTP2Header(":status", "200"), HTTP2Header("apns-id", "id-\(stream)")], body: body)
        }
        try pair.exchange()
        for (turn, stream) in ids.reversed().enumerated() {
            let response = try #require(pair.responses[stream])
            #expect(response.headers.value(of: "apns-id") == "id-\(stream)")
            #expect(response.body == (turn.isMultiple(of: 2) ? Array("body of \(stream)".utf8) : []))
        }
        #expect(pair.client.openStreamCount == 0)
        #expect(pair.server.openStreamCount == 0)
    }

    /// Five bytes at a time split every frame header and many fields across reads. (One byte at a time,
    /// Debian's nghttp2 1.52 refuses the block as "too many CONTINUATION frames", though it has one: its
    /// limit of 8, added against CVE-2024-28182, is reached by the nine reads of that frame's 9-byte
    /// header; two bytes at a time, five reads, pass.)
    @Test("a header block larger than a frame (CONTINUATION), fed to the server five bytes at a time, arrives whole")
    func continuationInPieces() throws {
        let pair = try SessionPair()
        try pair.exchange()
        // Digits cost HPACK's Huffman code 5–6 bits each: 40,000 of them stay well above one 16 KiB frame.
        let large = String((0..<40_000).map { Character(String($0 % 10)) })
        let stream = try pair.client.submitRequest(headers: SessionPair.request(extra: [HTTP2Header("x-large", large, neverIndexed: true)]), body: [7, 8])
        var toServer: [UInt8] = []
        try pair.client.send { toServer += $0 }
        #expect(toServer.count > 16_384 + 9)
        for start in stride(from: 0, to: toServer.count, by: 5) {
            try toServer[start..<min(start + 5, toServer.count)].withUnsafeBytes { try pair.server.receive($0) }
        }
        pair.serverEvents += pair.server.takeEvents()
        let request = try #require(pair.requests.first)
        #expect(request.streamID == stream)
        #expect(request.headers.value(of: "x-large") == large)
        #expect(request.headers.value(of: ":path") == "/3/device/abcd")
        #expect(request.body == [7, 8])
    }
}
