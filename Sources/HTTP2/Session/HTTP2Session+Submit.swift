internal import CNGHTTP2

extension HTTP2Session {
    /// Starts a request (client role) and returns its stream id. The body is sent as DATA frames.
    /// Headers are checked first (``HTTP2HeaderRules``); a refused block throws with
    /// ``HTTP2Error/isInvalidHeader`` set and leaves the session as it was.
    ///
    /// nghttp2 queues the request if the server's stream limit is reached; callers that want to honour
    /// the limit themselves check ``remoteMaxConcurrentStreams`` first.
    public func submitRequest(headers: [HTTP2Header], body: [UInt8]) throws(HTTP2Error) -> Int32 {
        if let problem = HTTP2HeaderRules.problem(in: headers) { throw .invalidHeader(problem, operation: "submit request") }
        return try submitUncheckedRequest(headers: headers, body: body)
    }

    /// A request exactly as given, malformed or not: for tests of how a server treats a bad client.
    func submitUncheckedRequest(headers: [HTTP2Header], body: [UInt8]) throws(HTTP2Error) -> Int32 {
        let streamID = try withNameValuePairs(headers) { pairs throws(HTTP2Error) in
            try withBodyProvider(hasBody: !body.isEmpty) { provider throws(HTTP2Error) in
                try HTTP2Error.check(nghttp2_submit_request(session, nil, pairs.baseAddress, pairs.count, provider, nil), "submit request")
            }
        }
        stream(streamID).outgoingBody = body
        return streamID
    }

    /// Answers a request (server role).
    public func submitResponse(streamID: Int32, headers: [HTTP2Header], body: [UInt8]) throws(HTTP2Error) {
        if let problem = HTTP2HeaderRules.problem(in: headers) { throw .invalidHeader(problem, operation: "submit response on stream \(streamID)") }
        stream(streamID).outgoingBody = body
        _ = try withNameValuePairs(headers) { pairs throws(HTTP2Error) in
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
    /// ``streams``), or with nil when there is no body; nghttp2 copies the provider during the call.
    private func withBodyProvider<T>(
        hasBody: Bool,
        _ body: (UnsafePointer<nghttp2_data_provider>?) throws(HTTP2Error) -> T
    ) throws(HTTP2Error) -> T {
        guard hasBody else { return try body(nil) }
        var provider = nghttp2_data_provider(source: nghttp2_data_source(ptr: nil), read_callback: HTTP2Callbacks.readBody)
        return try withUnsafePointer(to: &provider) { pointer throws(HTTP2Error) in try body(pointer) }
    }

    /// Lays the fields out in one stack buffer and calls `body` with `nghttp2_nv`s pointing into it;
    /// nghttp2 copies them during the submit call, so nothing outlives `body` and nothing is allocated.
    private func withNameValuePairs<T>(
        _ headers: [HTTP2Header],
        _ body: (UnsafeBufferPointer<nghttp2_nv>) throws(HTTP2Error) -> T
    ) throws(HTTP2Error) -> T {
        let byteCount = headers.reduce(1) { $0 + $1.name.utf8.count + $1.value.utf8.count }
        let noIndex = UInt8(NGHTTP2_NV_FLAG_NO_INDEX.rawValue)
        let none = UInt8(NGHTTP2_NV_FLAG_NONE.rawValue)
        return try withUnsafeTemporaryAllocation(of: UInt8.self, capacity: byteCount) { storage throws(HTTP2Error) in
            try withUnsafeTemporaryAllocation(of: nghttp2_nv.self, capacity: headers.count) { pairs throws(HTTP2Error) in
                var offset = 0
                func place(_ text: String) -> (UnsafeMutablePointer<UInt8>, Int) {
                    let start = storage.baseAddress! + offset
                    let written = UnsafeMutableBufferPointer(rebasing: storage[offset...]).initialize(from: text.utf8).1
                    offset += written
                    return (start, written)
                }
                for (index, header) in headers.enumerated() {
                    let (name, nameLength) = place(header.name)
                    let (value, valueLength) = place(header.value)
                    (pairs.baseAddress! + index).initialize(
                        to: nghttp2_nv(name: name, value: value, namelen: nameLength, valuelen: valueLength, flags: header.neverIndexed ? noIndex : none)
                    )
                }
                return try body(UnsafeBufferPointer(pairs))
            }
        }
    }
}
