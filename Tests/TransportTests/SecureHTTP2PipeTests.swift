import HTTP2
import TLS
import Testing
import TestSupport
import Transport

/// TLS and HTTP/2 stacked in memory, client and server, with no socket.
@Suite("Secure HTTP/2 pipe")
struct SecureHTTP2PipeTests {
    /// A client and a server pipe joined by moving each one's ciphertext into the other.
    struct Pair {
        let client: SecureHTTP2Pipe
        let server: SecureHTTP2Pipe

        init() throws {
            let clientContext = try TLSContext(client: TLSClientConfiguration(trustsSystemStore: false, additionalTrustedCAFile: Fixtures.path("tls/ca.pem")))
            let serverContext = try TLSContext(server: TLSServerConfiguration(
                certificateChainFile: Fixtures.path("tls/server.pem"), privateKeyFile: Fixtures.path("tls/server.key"), clientCAFile: Fixtures.path("tls/ca.pem")))
            client = SecureHTTP2Pipe(tls: try TLSConnection(context: clientContext, serverName: "localhost")) { try HTTP2Session(role: .client) }
            server = SecureHTTP2Pipe(tls: try TLSConnection(context: serverContext)) { try HTTP2Session(role: .server) }
        }

        /// A pair past the TLS handshake and the HTTP/2 prefaces, with nothing left in flight.
        static func connected() throws -> Pair {
            let pair = try Pair()
            try pair.client.start()
            try pair.settle()
            return pair
        }

        /// Everything `from` has for the socket.
        static func ciphertext(of from: SecureHTTP2Pipe) -> [UInt8] {
            var bytes = [UInt8](repeating: 0, count: from.pendingCiphertextCount)
            let count = bytes.withUnsafeMutableBytes { from.readCiphertext(into: $0) }
            return Array(bytes.prefix(count))
        }

        /// Moves bytes both ways (flushing each session) until neither side has anything to send.
        func settle() throws {
            for _ in 0..<20 {
                try client.flushSession()
                try server.flushSession()
                let toServer = Self.ciphertext(of: client)
                let toClient = Self.ciphertext(of: server)
                if toServer.isEmpty && toClient.isEmpty { return }
                _ = try toServer.withUnsafeBytes { try server.receive($0) }
                _ = try toClient.withUnsafeBytes { try client.receive($0) }
            }
            Issue.record("the pipes still had bytes to exchange after 20 rounds")
        }
    }

    /// The TLS records in `ciphertext`, as (content type, length) from their 5-byte headers.
    static func records(in ciphertext: [UInt8]) -> [(type: UInt8, length: Int)] {
        var records: [(UInt8, Int)] = []
        var offset = 0
        while offset + 5 <= ciphertext.count {
            let length = Int(ciphertext[offset + 3]) << 8 | Int(ciphertext[offset + 4])
            records.append((ciphertext[offset], length))
            offset += 5 + length
        }
        #expect(offset == ciphertext.count, "the ciphertext ends on a record boundary")
        return records
    }

    static func request(_ index: Int) -> [HTTP2Header] {
        [
            HTTP2Header(":method", "POST"), HTTP2Header(":scheme", "https"), HTTP2Header(":authority", "localhost"),
            HTTP2Header(":path", "/3/device/\(String(repeating: "ab", count: 32))"), HTTP2Header("apns-topic", "com.example.app"),
            HTTP2Header("apns-id", "6f1e2f4a-9c0b-8d3e-a5f7-0b1c2d3e4f\(index / 10)\(index % 10)"),
        ]
    }

    /// Submits `count` requests with `body` on a connected pair and flushes once: the TLS records the
    /// client wrote, and the request bodies the server read from them.
    static func flush(_ count: Int, requestsOf body: [UInt8]) throws -> (records: [(type: UInt8, length: Int)], bodies: [[UInt8]]) {
        let pair = try Pair.connected()
        let session = try #require(pair.client.session)
        for index in 0..<count { _ = try session.submitRequest(headers: request(index), body: body) }
        try pair.client.flushSession()
        let ciphertext = Pair.ciphertext(of: pair.client)
        _ = try ciphertext.withUnsafeBytes { try pair.server.receive($0) }
        let bodies = try #require(pair.server.session).takeEvents().compactMap { if case .message(_, _, let body) = $0 { body } else { nil } }
        return (records(in: ciphertext), bodies)
    }

    @Test("one flush of many requests is one TLS record, not one per frame, and the server reads them all")
    func oneRecordPerFlush() throws {
        let body = [UInt8](repeating: 0x61, count: 300)
        let (records, bodies) = try Self.flush(20, requestsOf: body)
        // 20 HEADERS and 20 DATA frames, about 7 KiB in all: one application-data record (type 23).
        #expect(records.count == 1, "\(records.count) records for 40 frames")
        #expect(records.allSatisfy { $0.type == 23 })
        #expect(bodies.count == 20)
        #expect(bodies.allSatisfy { $0 == body })
    }

    @Test("a flush larger than a record fills records to the limit and loses nothing")
    func largeFlush() throws {
        let body = [UInt8](repeating: 0x62, count: 4_000)
        let (records, bodies) = try Self.flush(12, requestsOf: body)
        // About 49 KiB of frames: four records (16 KiB of plaintext each at most, plus 17 bytes of
        // AEAD tag and inner type), where a record per frame made 24.
        #expect(records.count <= 4, "\(records.count) records")
        #expect(records.allSatisfy { $0.length <= SecureHTTP2Pipe.recordSize + 256 })
        #expect(bodies.count == 12)
        #expect(bodies.allSatisfy { $0 == body })
    }
}
