internal import CNGHTTP2

/// nghttp2's C callbacks. Each recovers the ``HTTP2Session`` from `user_data` and records what happened;
/// none throws across C, and none calls back into nghttp2's receive or send.
enum HTTP2Callbacks {
    static func install(on callbacks: OpaquePointer?, role: HTTP2Session.Role) {
        nghttp2_session_callbacks_set_on_begin_headers_callback(callbacks, onBeginHeaders)
        nghttp2_session_callbacks_set_on_header_callback(callbacks, onHeader)
        nghttp2_session_callbacks_set_on_data_chunk_recv_callback(callbacks, onDataChunk)
        nghttp2_session_callbacks_set_on_frame_recv_callback(callbacks, onFrame)
        nghttp2_session_callbacks_set_on_stream_close_callback(callbacks, onStreamClose)
        // Without this callback nghttp2 silently drops a malformed regular field and serves the rest of
        // the request; a server that must be as strict as the strictest peer needs to see it.
        if role == .server { nghttp2_session_callbacks_set_on_invalid_header_callback(callbacks, onInvalidHeader) }
    }

    private static func owner(_ userData: UnsafeMutableRawPointer?) -> HTTP2Session {
        Unmanaged<HTTP2Session>.fromOpaque(userData!).takeUnretainedValue()
    }

    /// A header block's fields arrive one callback each, and no other frame comes between them (RFC 9113
    /// §6.10), so one block at a time gathers in the session.
    static let onBeginHeaders: nghttp2_on_begin_headers_callback = { _, frame, userData in
        guard frame != nil else { return 0 }
        owner(userData).beginHeaders()
        return 0
    }

    /// Records each field, with whether the peer sent it never-indexed (so a server can check HPACK use).
    static let onHeader: nghttp2_on_header_callback = { _, frame, name, nameLength, value, valueLength, flags, userData in
        guard frame != nil, let name, let value else { return 0 }
        let session = owner(userData)
        let nameBytes = UnsafeBufferPointer(start: name, count: nameLength)
        let valueBytes = UnsafeBufferPointer(start: value, count: valueLength)
        let header = HTTP2Header(
            KnownFieldText.name(nameBytes) ?? String(decoding: nameBytes, as: UTF8.self),
            KnownFieldText.value(valueBytes) ?? String(decoding: valueBytes, as: UTF8.self),
            neverIndexed: flags & UInt8(NGHTTP2_NV_FLAG_NO_INDEX.rawValue) != 0
        )
        session.receivedHeaders.append(header)
        return 0
    }

    /// A field nghttp2 found malformed (RFC 9113 §8.2.1): reported, and the stream reset.
    static let onInvalidHeader: nghttp2_on_invalid_header_callback = { _, frame, name, nameLength, _, _, _, userData in
        guard let frame else { return 0 }
        let text = name.map { String(decoding: UnsafeBufferPointer(start: $0, count: nameLength), as: UTF8.self) } ?? ""
        owner(userData).events.append(.invalidHeader(streamID: frame.pointee.hd.stream_id, name: text))
        return Int32(NGHTTP2_ERR_TEMPORAL_CALLBACK_FAILURE.rawValue)
    }

    static let onDataChunk: nghttp2_on_data_chunk_recv_callback = { _, _, streamID, data, length, userData in
        guard let data else { return 0 }
        if let stream = owner(userData).openStream(streamID) { stream.body.append(contentsOf: UnsafeBufferPointer(start: data, count: length)) }
        return 0
    }

    static let onFrame: nghttp2_on_frame_recv_callback = { session, frame, userData in
        guard let frame else { return 0 }
        let owner = owner(userData)
        let header = frame.pointee.hd
        let endsStream = header.flags & UInt8(NGHTTP2_FLAG_END_STREAM.rawValue) != 0
        switch UInt32(header.type) {
        case NGHTTP2_HEADERS.rawValue:
            owner.headersComplete(on: header.stream_id, endsStream: endsStream)
        case NGHTTP2_DATA.rawValue:
            if endsStream, let state = owner.openStream(header.stream_id) {
                owner.events.append(.message(streamID: header.stream_id, headers: state.headers, body: state.body))
            }
        case NGHTTP2_SETTINGS.rawValue:
            if header.flags & UInt8(NGHTTP2_FLAG_ACK.rawValue) == 0 {
                owner.events.append(.remoteSettings(maxConcurrentStreams: owner.remoteMaxConcurrentStreams))
            }
        case NGHTTP2_GOAWAY.rawValue:
            let goAway = frame.pointee.goaway
            let debugData = goAway.opaque_data.map { Array(UnsafeBufferPointer(start: $0, count: goAway.opaque_data_len)) } ?? []
            owner.events.append(.goAway(lastStreamID: goAway.last_stream_id, errorCode: HTTP2ErrorCode(rawValue: goAway.error_code), debugData: debugData))
        case NGHTTP2_PING.rawValue:
            if header.flags & UInt8(NGHTTP2_FLAG_ACK.rawValue) != 0 {
                let payload = withUnsafeBytes(of: frame.pointee.ping.opaque_data) { $0.loadUnaligned(as: UInt64.self) }
                owner.events.append(.pingAcknowledged(UInt64(bigEndian: payload)))
            }
        case NGHTTP2_RST_STREAM.rawValue:
            owner.events.append(.streamReset(streamID: header.stream_id, errorCode: HTTP2ErrorCode(rawValue: frame.pointee.rst_stream.error_code)))
        default:
            break
        }
        return 0
    }

    static let onStreamClose: nghttp2_on_stream_close_callback = { _, streamID, errorCode, userData in
        let owner = owner(userData)
        owner.closeStream(streamID)
        owner.events.append(.streamClosed(streamID: streamID, errorCode: HTTP2ErrorCode(rawValue: errorCode)))
        return 0
    }

    /// Copies the next piece of a stream's body into nghttp2's frame buffer.
    static let readBody: nghttp2_data_source_read_callback = { _, streamID, buffer, length, flags, _, userData in
        let owner = owner(userData)
        guard let buffer, let flags, let state = owner.openStream(streamID) else {
            return Int(NGHTTP2_ERR_TEMPORAL_CALLBACK_FAILURE.rawValue)
        }
        let count = min(length, state.outgoingBody.count - state.sentBodyBytes)
        state.outgoingBody.withUnsafeBufferPointer { body in
            buffer.update(from: body.baseAddress! + state.sentBodyBytes, count: count)
        }
        state.sentBodyBytes += count
        if state.sentBodyBytes == state.outgoingBody.count {
            flags.pointee |= NGHTTP2_DATA_FLAG_EOF.rawValue
            state.outgoingBody = []
            state.sentBodyBytes = 0
        }
        return count
    }
}
