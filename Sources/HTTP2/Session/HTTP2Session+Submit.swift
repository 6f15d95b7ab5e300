internal import CNGHTTP2

extension HTTP2Session {
    /// Starts a request (client role) and returns its stream id. The body is sent as DATA frames.
    /// Headers are checked first (``HTTP2HeaderRules``); a refused block throws with
    /// ``HTTP2Error/isInvalidHeader`` set and leaves the session as it was.
    ///
    /// nghttp2 queues the request if the server's stream limit is reached; callers that want to honour
    /// the limit themselves check ``remoteMaxConcurrentStreams`` first.
    public func submitRequest(headers: [HTTP2Header], body: [UInt8]) throws(HTTP2Error) -> Int32 {
        try submitRequest(HTTP2HeaderBlock(headers), body: body)
    }

    /// The same with a block built field by field (a client's per-request path: no `String`s).
    public func submitRequest(_ block: HTTP2HeaderBlock, body: [UInt8]) throws(HTTP2Error) -> Int32 {
        if let problem = block.problem { throw .invalidHeader(problem, operation: "submit request") }
        return try submitUncheckedRequest(block, body: body)
    }

    /// A request exactly as given, malformed or not: for tests of how a server treats a bad client.
    func submitUncheckedRequest(headers: [HTTP2Header], body: [UInt8]) throws(HTTP2Error) -> Int32 {
        try submitUncheckedRequest(HTTP2HeaderBlock(headers), body: body)
    }

    private func submitUncheckedRequest(_ block: HTTP2HeaderBlock, body: [UInt8]) throws(HTTP2Error) -> Int32 {
        // The stream carries its slot from the start (``StreamSlots``): nghttp2 may open it only when
        // the server's stream limit allows, and its answer's callbacks find it by the slot.
        let slot = slots.take()
        slots[slot].outgoingBody = body
        do {
            return try withNameValuePairs(block) { pairs throws(HTTP2Error) in
                try withBodyProvider(hasBody: !body.isEmpty) { provider throws(HTTP2Error) in
                    try HTTP2Error.check(
                        nghttp2_submit_request(session, nil, pairs.baseAddress, pairs.count, provider, StreamSlots.userData(slot)), "submit request"
                    )
                }
            }
        } catch {
            slots.release(slot)
            throw error
        }
    }

    /// Answers a request (server role).
    public func submitResponse(streamID: Int32, headers: [HTTP2Header], body: [UInt8]) throws(HTTP2Error) {
        let block = HTTP2HeaderBlock(headers)
        if let problem = block.problem { throw .invalidHeader(problem, operation: "submit response on stream \(streamID)") }
        // A stream the client reset while its answer was held is gone: no state is made for it again
        // (it would stay for the connection's life), and nghttp2 drops the response.
        openStream(streamID)?.outgoingBody = body
        _ = try withNameValuePairs(block) { pairs throws(HTTP2Error) in
            try withBodyProvider(hasBody: !body.isEmpty) { provider throws(HTTP2Error) in
                try HTTP2Error.check(
                    nghttp2_submit_response(session, streamID, pairs.baseAddress, pairs.count, provider),
                    "submit response on stream \(streamID)"
                )
            }
        }
    }

    /// Resets a stream (RST_STREAM), e.g. CANCEL after a request timed out.
    public func resetStream(_ streamID: Int32, errorCode: HTTP2ErrorCode) throws(HTTP2Error) {
        try HTTP2Error.check(nghttp2_submit_rst_stream(session, 0, streamID, errorCode.rawValue), "reset stream \(streamID)")
    }

    /// Sends GOAWAY. `lastStreamID` defaults to the last stream this side processed.
    public func submitGoAway(lastStreamID: Int32? = nil, errorCode: HTTP2ErrorCode = .noError, debugData: [UInt8] = []) throws(HTTP2Error) {
        try HTTP2Error.check(
            nghttp2_submit_goaway(session, 0, lastStreamID ?? lastProcessedStreamID, errorCode.rawValue, debugData, debugData.count),
            "submit GOAWAY"
        )
    }

    /// Sends a PING carrying `payload`; the peer's ACK comes back as ``HTTP2Event/pingAcknowledged(_:)``.
    public func submitPing(_ payload: UInt64) throws(HTTP2Error) {
        var bytes = payload.bigEndian
        _ = try withUnsafeBytes(of: &bytes) { raw throws(HTTP2Error) in
            try HTTP2Error.check(nghttp2_submit_ping(session, 0, raw.baseAddress?.assumingMemoryBound(to: UInt8.self)), "submit PING")
        }
    }

    /// Sends SETTINGS (a server changes MAX_CONCURRENT_STREAMS this way at any time).
    public func submitSettings(_ settings: HTTP2Settings) throws(HTTP2Error) {
        var entries: [nghttp2_settings_entry] = []
        if let streams = settings.maxConcurrentStreams {
            entries.append(nghttp2_settings_entry(settings_id: Int32(NGHTTP2_SETTINGS_MAX_CONCURRENT_STREAMS.rawValue), value: streams))
        }
        if let window = settings.initialWindowSize {
            entries.append(nghttp2_settings_entry(settings_id: Int32(NGHTTP2_SETTINGS_INITIAL_WINDOW_SIZE.rawValue), value: window))
        }
        if role == .client {
            entries.append(nghttp2_settings_entry(settings_id: Int32(NGHTTP2_SETTINGS_ENABLE_PUSH.rawValue), value: 0))
        }
        try HTTP2Error.check(nghttp2_submit_settings(session, 0, entries, entries.count), "submit SETTINGS")
    }

    /// Ends the session at once with GOAWAY(`errorCode`); pending output still carries the GOAWAY.
    public func terminate(errorCode: HTTP2ErrorCode) throws(HTTP2Error) {
        try HTTP2Error.check(nghttp2_session_terminate_session(session, errorCode.rawValue), "terminate session")
    }

    /// Calls `body` with the DATA source for a message body (the read callback finds the bytes in
    /// its stream's slot, ``StreamSlots``), or with nil when there is no body; nghttp2 copies the
    /// provider during the call.
    private func withBodyProvider<T>(
        hasBody: Bool,
        _ body: (UnsafePointer<nghttp2_data_provider>?) throws(HTTP2Error) -> T
    ) throws(HTTP2Error) -> T {
        guard hasBody else { return try body(nil) }
        var provider = nghttp2_data_provider(source: nghttp2_data_source(ptr: nil), read_callback: HTTP2Callbacks.readBody)
        return try withUnsafePointer(to: &provider) { pointer throws(HTTP2Error) in try body(pointer) }
    }

    /// Calls `body` with `nghttp2_nv`s pointing into the block's storage; nghttp2 copies them during
    /// the submit call, so nothing outlives `body`, and the pairs are on the stack.
    private func withNameValuePairs<T>(
        _ block: HTTP2HeaderBlock,
        _ body: (UnsafeBufferPointer<nghttp2_nv>) throws(HTTP2Error) -> T
    ) throws(HTTP2Error) -> T {
        let noIndex = UInt8(NGHTTP2_NV_FLAG_NO_INDEX.rawValue)
        let none = UInt8(NGHTTP2_NV_FLAG_NONE.rawValue)
        return try block.withFields { storage, fields throws(HTTP2Error) in
            guard let start = storage.baseAddress else { return try body(UnsafeBufferPointer(start: nil, count: 0)) }
            // nghttp2 takes mutable pointers but only reads them (it copies the block).
            let base = UnsafeMutablePointer(mutating: start)
            return try withUnsafeTemporaryAllocation(of: nghttp2_nv.self, capacity: fields.count) { pairs throws(HTTP2Error) in
                for (index, field) in zip(pairs.indices, fields) {
                    pairs.initializeElement(
                        at: index,
                        to: nghttp2_nv(
                            name: base + field.nameStart, value: base + field.valueStart, namelen: field.nameCount,
                            valuelen: field.valueCount, flags: field.neverIndexed ? noIndex : none
                        )
                    )
                }
                return try body(UnsafeBufferPointer(pairs))
            }
        }
    }
}
