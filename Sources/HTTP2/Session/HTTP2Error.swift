internal import CNGHTTP2

/// A failure inside the HTTP/2 session: nghttp2's error code with what was being done.
///
/// ``HTTP2Error/check(_:_:)`` is the one place nghttp2's negative return codes become Swift errors.
public struct HTTP2Error: Error, Hashable, Sendable, CustomStringConvertible {
    /// nghttp2's library error code (negative), e.g. -902 for a callback failure.
    public let code: Int32
    public let operation: String
    public let message: String

    public var description: String { "HTTP/2: \(operation) failed: \(message) (\(code))" }

    init(code: Int32, operation: String) {
        self.code = code
        self.operation = operation
        message = String(cString: nghttp2_strerror(code))
    }

    /// A header block refused before it reached nghttp2 (see ``HTTP2HeaderRules``): nothing was sent,
    /// the session is unharmed, and only this one message fails.
    static func invalidHeader(_ problem: String, operation: String) -> HTTP2Error {
        HTTP2Error(code: NGHTTP2_ERR_INVALID_HEADER_BLOCK.rawValue, operation: operation, message: problem)
    }

    private init(code: Int32, operation: String, message: String) {
        self.code = code
        self.operation = operation
        self.message = message
    }

    /// Whether this is a header block refused before sending (the session is fine; the message is not).
    public var isInvalidHeader: Bool { code == NGHTTP2_ERR_INVALID_HEADER_BLOCK.rawValue }

    /// Passes non-negative results through; turns negative ones into an error.
    @discardableResult
    static func check<T: BinaryInteger>(_ result: T, _ operation: @autoclosure () -> String) throws(HTTP2Error) -> T {
        guard result >= 0 else { throw HTTP2Error(code: Int32(truncatingIfNeeded: result), operation: operation()) }
        return result
    }
}
