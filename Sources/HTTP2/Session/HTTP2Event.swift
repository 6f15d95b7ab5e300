/// Something the peer did, reported by ``HTTP2Session`` after it processed incoming or outgoing bytes.
public enum HTTP2Event: Hashable, Sendable {
    /// A complete message on a stream: a request (server role) or a response (client role).
    case message(streamID: Int32, headers: [HTTP2Header], body: [UInt8])
    /// The stream is gone. `errorCode` is `noError` after a normal exchange; `refusedStream` when the
    /// peer never processed it (a REFUSED_STREAM reset, or above a GOAWAY's last stream id).
    case streamClosed(streamID: Int32, errorCode: HTTP2ErrorCode)
    /// The peer reset a stream.
    case streamReset(streamID: Int32, errorCode: HTTP2ErrorCode)
    /// The peer's SETTINGS arrived; its current SETTINGS_MAX_CONCURRENT_STREAMS.
    case remoteSettings(maxConcurrentStreams: UInt32)
    /// The peer is going away: streams above `lastStreamID` were not processed.
    case goAway(lastStreamID: Int32, errorCode: HTTP2ErrorCode, debugData: [UInt8])
    /// The peer acknowledged one of our PINGs.
    case pingAcknowledged(UInt64)
    /// (Server role.) A request carried a malformed header field, named here; nghttp2 resets its stream.
    case invalidHeader(streamID: Int32, name: String)
}
