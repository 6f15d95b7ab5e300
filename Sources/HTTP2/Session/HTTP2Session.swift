internal import CNGHTTP2

/// One HTTP/2 connection's protocol state, client or server, on nghttp2 with no I/O inside.
///
/// Bytes from the peer go in through ``receive(_:)``; bytes for the peer come out of ``send(_:)``; what
/// happened comes out of ``drainEvents(_:)``. Not `Sendable`: an `nghttp2_session` belongs to one thread,
/// so each instance lives on the event loop of its connection.
public final class HTTP2Session {
    public enum Role: Sendable { case client, server }

    public let role: Role
    var session: OpaquePointer!
    var slots = StreamSlots()
    /// The stream the last lookup found, and its slot: a header block's fields, its body's chunks and
    /// its end arrive one callback each, for one stream after another, so most lookups are for the
    /// same stream again.
    var recentStream: (id: Int32, slot: Int)?
    var events: [HTTP2Event] = []
    /// The fields of the header block arriving now (``beginHeaders()``).
    var receivedHeaders: [HTTP2Header] = []

    /// - Parameters:
    ///   - settings: the SETTINGS this side sends first (a server advertises MAX_CONCURRENT_STREAMS here).
    ///   - assumedPeerMaxConcurrentStreams: streams a client may open before the server's SETTINGS arrive.
    public init(role: Role, settings: HTTP2Settings = HTTP2Settings(), assumedPeerMaxConcurrentStreams: UInt32 = 100) throws(HTTP2Error) {
        self.role = role
        var callbacks: OpaquePointer?
        try HTTP2Error.check(nghttp2_session_callbacks_new(&callbacks), "create callbacks")
        defer { nghttp2_session_callbacks_del(callbacks) }
        HTTP2Callbacks.install(on: callbacks, role: role)
        var options: OpaquePointer?
        try HTTP2Error.check(nghttp2_option_new(&options), "create options")
        defer { nghttp2_option_del(options) }
        nghttp2_option_set_peer_max_concurrent_streams(options, assumedPeerMaxConcurrentStreams)

        var created: OpaquePointer?
        let context = Unmanaged.passUnretained(self).toOpaque()
        switch role {
        case .client: try HTTP2Error.check(nghttp2_session_client_new2(&created, callbacks, context, options), "create client session")
        case .server: try HTTP2Error.check(nghttp2_session_server_new2(&created, callbacks, context, options), "create server session")
        }
        session = created
        try submitSettings(settings)
        if let window = settings.connectionWindowSize {
            try HTTP2Error.check(
                nghttp2_session_set_local_window_size(session, UInt8(NGHTTP2_FLAG_NONE.rawValue), 0, Int32(clamping: window)),
                "enlarge the connection window"
            )
        }
    }

    deinit {
        nghttp2_session_del(session)
    }

    /// Processes bytes from the peer; what they meant is collected for ``drainEvents(_:)``.
    ///
    /// A thrown error is fatal for the connection (the peer broke the protocol); whatever ``send(_:)``
    /// still yields (a GOAWAY) may be written before closing.
    public func receive(_ bytes: UnsafeRawBufferPointer) throws(HTTP2Error) {
        guard let base = bytes.baseAddress, !bytes.isEmpty else { return }
        try HTTP2Error.check(nghttp2_session_mem_recv(session, base.assumingMemoryBound(to: UInt8.self), bytes.count), "process incoming frames")
    }

    /// Hands every pending outgoing byte to `sink`, frame by frame; each buffer is valid only during its call.
    public func send(_ sink: (UnsafeRawBufferPointer) throws -> Void) throws {
        while true {
            var data: UnsafePointer<UInt8>?
            let count = try HTTP2Error.check(nghttp2_session_mem_send(session, &data), "serialise outgoing frames")
            guard count > 0, let data else { return }
            try sink(UnsafeRawBufferPointer(start: data, count: count))
        }
    }

    /// Hands the events since the last call to `body`, oldest first, then forgets them.
    ///
    /// The array's storage serves the next events, so a read costs no allocation unless `body` keeps
    /// a copy. (Returning the array instead made `removeAll(keepingCapacity:)` allocate a fresh buffer
    /// of the full capacity on every read, while the caller still held the old one: a 16 KiB request that
    /// made glibc consolidate its fast bins.)
    public func drainEvents(_ body: ([HTTP2Event]) throws -> Void) rethrows {
        guard !events.isEmpty else { return }
        var taken: [HTTP2Event] = []
        swap(&taken, &events)
        defer {
            // Events that `body` caused (a frame it sent or refused) wait for the next call in storage
            // of their own; otherwise the drained storage comes back.
            if events.isEmpty {
                taken.removeAll(keepingCapacity: true)
                swap(&taken, &events)
            }
        }
        try body(taken)
    }

    /// Events since the last call, oldest first, as an array of the caller's (an allocation each call;
    /// ``drainEvents(_:)`` is the one for every read).
    public func takeEvents() -> [HTTP2Event] {
        var taken: [HTTP2Event] = []
        drainEvents { taken = $0 }
        return taken
    }

    /// Whether the session still expects frames from the peer.
    public var wantsRead: Bool { nghttp2_session_want_read(session) != 0 }
    /// Whether the session has frames to send.
    public var wantsWrite: Bool { nghttp2_session_want_write(session) != 0 }

    /// The peer's current SETTINGS_MAX_CONCURRENT_STREAMS (or the assumption, before its SETTINGS).
    public var remoteMaxConcurrentStreams: UInt32 {
        nghttp2_session_get_remote_settings(session, NGHTTP2_SETTINGS_MAX_CONCURRENT_STREAMS)
    }

    /// Streams open on this session right now.
    public var openStreamCount: Int { slots.openCount }

    /// The highest stream id the peer opened and this side processed (for a server's GOAWAY).
    public var lastProcessedStreamID: Int32 { nghttp2_session_get_last_proc_stream_id(session) }
}

/// The SETTINGS one side sends.
public struct HTTP2Settings: Hashable, Sendable {
    /// SETTINGS_MAX_CONCURRENT_STREAMS, when this side limits the peer.
    public var maxConcurrentStreams: UInt32?
    /// SETTINGS_INITIAL_WINDOW_SIZE for streams the peer sends on.
    public var initialWindowSize: UInt32?
    /// The connection-level receive window (a WINDOW_UPDATE on stream 0 at start). HTTP/2 starts it at
    /// 64 KiB, which a thousand concurrent 300-byte bodies exhaust several times over.
    public var connectionWindowSize: UInt32?

    public init(maxConcurrentStreams: UInt32? = nil, initialWindowSize: UInt32? = nil, connectionWindowSize: UInt32? = nil) {
        self.maxConcurrentStreams = maxConcurrentStreams
        self.initialWindowSize = initialWindowSize
        self.connectionWindowSize = connectionWindowSize
    }
}
