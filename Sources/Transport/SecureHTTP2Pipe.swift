public import HTTP2
public import TLS

/// TLS and HTTP/2 stacked on one byte stream, with no I/O: ciphertext in, events and ciphertext out.
///
/// The HTTP/2 session is created when the TLS handshake completes (ALPN has then agreed on h2). Not
/// `Sendable`: it belongs to the event loop of its connection, like the two cores it joins.
public final class SecureHTTP2Pipe {
    public let tls: TLSConnection
    /// The HTTP/2 session, once the handshake is complete.
    public private(set) var session: HTTP2Session?
    /// True once the peer sent TLS close_notify.
    public private(set) var peerClosed = false
    private let makeSession: () throws -> HTTP2Session
    /// Frames gathered for the next TLS record. nghttp2 hands out one frame at a time, and a record per
    /// frame (two per APNs request: HEADERS and DATA) costs an `SSL_write`, a cipher call and 22 bytes
    /// of framing each; gathered, one record carries every frame of a flush up to ``recordSize``.
    ///
    /// One allocation of a record's size for the pipe's life, and a count, rather than an array: an
    /// array's `append` spans a call, so Swift checked every access to it for exclusivity at run time,
    /// four times a request (about 300 instructions), and its growth path was copied for every frame.
    private let gathered = UnsafeMutableRawBufferPointer.allocate(byteCount: recordSize, alignment: 1)
    private var gatheredCount = 0

    /// TLS's largest record plaintext (RFC 8446 §5.1).
    public static let recordSize = 16_384

    public init(tls: TLSConnection, makeSession: @escaping () throws -> HTTP2Session) {
        self.tls = tls
        self.makeSession = makeSession
    }

    deinit {
        gathered.deallocate()
    }

    /// Starts the handshake (a client's ClientHello); servers wait for the peer instead.
    public func start() throws {
        _ = try advanceHandshake()
    }

    /// Feeds bytes read from the socket.
    ///
    /// - Returns: true when this call completed the handshake (the session exists from now on).
    public func receive(_ ciphertext: UnsafeRawBufferPointer) throws -> Bool {
        tls.receiveCiphertext(ciphertext)
        var completed = false
        if session == nil {
            completed = try advanceHandshake()
            guard completed else { return false }
        }
        guard let session else { return completed }
        if try !tls.readPlaintext({ try session.receive($0) }) {
            peerClosed = true
        }
        return completed
    }

    /// Moves every frame the session wants to send into TLS, as few records as fit; the ciphertext
    /// waits for ``readCiphertext(into:)``.
    public func flushSession() throws {
        guard let session else { return }
        try session.send { frame in
            if gatheredCount + frame.count > Self.recordSize { try writeGathered() }
            if frame.count >= Self.recordSize {
                try tls.writePlaintext(frame)  // already a record's worth: no copy
            } else {
                UnsafeMutableRawBufferPointer(rebasing: gathered[gatheredCount...]).copyMemory(from: frame)
                gatheredCount += frame.count
            }
        }
        try writeGathered()
    }

    private func writeGathered() throws {
        guard gatheredCount > 0 else { return }
        let record = UnsafeRawBufferPointer(rebasing: gathered[..<gatheredCount])
        gatheredCount = 0
        try tls.writePlaintext(record)
    }

    /// Bytes waiting for the socket.
    public var pendingCiphertextCount: Int { tls.pendingCiphertextCount }

    /// Moves pending bytes for the socket into `buffer`; returns how many.
    public func readCiphertext(into buffer: UnsafeMutableRawBufferPointer) -> Int {
        tls.readCiphertext(into: buffer)
    }

    private func advanceHandshake() throws -> Bool {
        guard try tls.continueHandshake() else { return false }
        session = try makeSession()
        try flushSession()
        return true
    }
}
