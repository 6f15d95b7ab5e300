/// Why a TLS context could not be built or a TLS session failed.
public struct TLSError: Error, Hashable, Sendable, CustomStringConvertible {
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        public let name: String
        public var description: String { name }

        /// A certificate, key, CA or PKCS#12 file could not be loaded.
        public static let configuration = Code(name: "configuration")
        /// The peer's certificate chain failed verification.
        public static let certificateVerificationFailed = Code(name: "certificateVerificationFailed")
        /// The peer's certificate is valid but names another host (or IP address).
        public static let hostNameMismatch = Code(name: "hostNameMismatch")
        /// The peer did not agree to the ALPN protocol asked for (HTTP/2).
        public static let alpnMismatch = Code(name: "alpnMismatch")
        /// The handshake or the record layer failed for another reason.
        public static let protocolFailure = Code(name: "protocolFailure")
        /// The peer closed the TLS session.
        public static let closed = Code(name: "closed")
    }

    public let code: Code
    /// What failed, with OpenSSL's reason; never key material or passwords.
    public let message: String

    public init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }

    public var description: String { "TLS \(code): \(message)" }
}
