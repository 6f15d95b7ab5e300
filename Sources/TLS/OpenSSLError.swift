internal import COpenSSL

/// A failure reported by OpenSSL, with the operation that failed and OpenSSL's own error queue.
///
/// This is the one place where OpenSSL's thread-local error queue becomes a Swift error: every call site
/// in this module that sees a failure return code goes through ``OpenSSLError/drain(_:)``. The queue holds
/// library, reason and function names only, never key material.
public struct OpenSSLError: Error, CustomStringConvertible, Sendable {
    /// What this module was trying to do, e.g. "sign with ES256 key".
    public let operation: String
    /// OpenSSL's error strings, oldest first (may be empty when OpenSSL queued nothing).
    public let queue: [String]

    public var description: String {
        queue.isEmpty ? "OpenSSL: \(operation) failed" : "OpenSSL: \(operation) failed: \(queue.joined(separator: "; "))"
    }

    /// Empties OpenSSL's error queue for this thread into an error describing `operation`.
    static func drain(_ operation: String) -> OpenSSLError {
        var queue: [String] = []
        while true {
            let code = ERR_get_error()
            if code == 0 { break }
            var buffer = [CChar](repeating: 0, count: 256)
            ERR_error_string_n(code, &buffer, buffer.count)
            queue.append(String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self))
        }
        return OpenSSLError(operation: operation, queue: queue)
    }

    /// Discards anything a previous call left queued, so a later failure reports only its own errors.
    static func clearQueue() {
        ERR_clear_error()
    }
}
