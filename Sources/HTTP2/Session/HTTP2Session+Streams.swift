internal import CNGHTTP2

/// What a session keeps per open stream, found through nghttp2's `stream_user_data`: each stream
/// carries the number of its slot, so the callbacks of every body chunk and frame reach their stream's
/// state without hashing its id (header fields gather in the session, one block at a time: a client's
/// thousand streams in flight keep a thousand states, and one touched per field was a cache miss per
/// answer, 2.4 % of the client's CPU samples), and a closed stream's state, with its buffers' room,
/// serves the next stream instead of being freed (1.2 fewer allocations a request than a dictionary of
/// new states by stream id; the lookups cost what the dictionary's did, about 2,000 instructions a
/// request: callgrind, `scripts/bench-instructions.sh`).
extension HTTP2Session {
    /// One stream's state.
    ///
    /// A class, so that nghttp2's callbacks change a stream through the reference its slot holds: a
    /// value in a table would be changed through a `modify` accessor, a coroutine whose frame is
    /// heap-allocated, once per header field and per chunk.
    final class StreamState {
        var outgoingBody: [UInt8] = []
        var sentBodyBytes = 0
        /// The header block of a message whose body is still to come (``HTTP2Session/receivedHeaders``
        /// holds a block while it arrives).
        var headers: [HTTP2Header] = []
        var body: [UInt8] = []

        /// Empty again for the slot's next stream. The body's buffer keeps its room for it, unless a
        /// body made one larger than any answer needs.
        func reset() {
            outgoingBody = []
            sentBodyBytes = 0
            headers = []
            body.removeAll(keepingCapacity: body.capacity <= Self.keptBodyCapacity)
        }

        static let keptBodyCapacity = 4096
    }

    /// The states in numbered slots, reused as streams close, so a connection holds at most as many as
    /// it ever had streams open at once.
    struct StreamSlots {
        private var states: [StreamState] = []
        private var free: [Int] = []
        /// Slots taken and not released: the streams open, and requests nghttp2 holds until the
        /// server's stream limit lets them open.
        private(set) var openCount = 0

        /// Slots made so far: the most streams that were open at once.
        var count: Int { states.count }

        /// A slot for a new stream, its state empty.
        mutating func take() -> Int {
            openCount += 1
            if let slot = free.popLast() { return slot }
            states.append(StreamState())
            return states.count - 1
        }

        /// Gives `slot` back, its state emptied.
        mutating func release(_ slot: Int) {
            states[slot].reset()
            free.append(slot)
            openCount -= 1
        }

        subscript(slot: Int) -> StreamState { states[slot] }

        /// What nghttp2 keeps for the stream in `slot`: its number plus one, since NULL means none.
        static func userData(_ slot: Int) -> UnsafeMutableRawPointer? {
            UnsafeMutableRawPointer(bitPattern: slot + 1)
        }

        /// The slot a stream's user data names, or nil for a stream without one.
        static func slot(_ userData: UnsafeMutableRawPointer?) -> Int? {
            userData.map { Int(bitPattern: $0) - 1 }
        }
    }

    /// A header block begins: its fields gather in ``receivedHeaders``, with room for an APNs
    /// request's dozen at once rather than growing the array four times per request.
    func beginHeaders() {
        receivedHeaders.removeAll(keepingCapacity: true)
        receivedHeaders.reserveCapacity(12)
    }

    /// The header block in ``receivedHeaders`` is complete on stream `streamID`: a message without a
    /// body is reported at once, and the headers of one with a body wait in its stream's state. (A
    /// server's stream begins its state here, which its answer's body needs even when the request
    /// had none.) A later block on the same stream (trailers) takes the place of the first, as it
    /// always has here.
    func headersComplete(on streamID: Int32, endsStream: Bool) {
        guard let state = role == .server ? stream(streamID) : openStream(streamID) else { return }
        if endsStream {
            events.append(.message(streamID: streamID, headers: receivedHeaders, body: state.body))
        } else {
            state.headers = receivedHeaders
        }
    }

    /// The state of stream `streamID`, made on first use: a stream the peer began (server role).
    func stream(_ streamID: Int32) -> StreamState {
        if let state = openStream(streamID) { return state }
        let slot = slots.take()
        // nghttp2 holds the stream by now (its HEADERS began it); were it unknown, the slot goes back and
        // the state serves this callback alone, as nothing would close it.
        guard nghttp2_session_set_stream_user_data(session, streamID, StreamSlots.userData(slot)) == 0 else {
            slots.release(slot)
            return StreamState()
        }
        recentStream = (streamID, slot)
        return slots[slot]
    }

    /// The state of stream `streamID` if it is open.
    func openStream(_ streamID: Int32) -> StreamState? {
        if let recent = recentStream, recent.id == streamID { return slots[recent.slot] }
        guard let slot = StreamSlots.slot(nghttp2_session_get_stream_user_data(session, streamID)) else { return nil }
        recentStream = (streamID, slot)
        return slots[slot]
    }

    /// Forgets stream `streamID`, which nghttp2 is closing: its slot is free for the next stream. (Its
    /// user data may stay with it: nghttp2 finds no closed stream's.)
    func closeStream(_ streamID: Int32) {
        guard let slot = StreamSlots.slot(nghttp2_session_get_stream_user_data(session, streamID)) else { return }
        if recentStream?.id == streamID { recentStream = nil }
        slots.release(slot)
    }
}
