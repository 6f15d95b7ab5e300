/// Why `send` could not return an answer from APNs. Rejections are not errors: they come back as
/// ``APNsResponse/rejected(_:)``.
public struct APNsSendError: Error, Hashable, Sendable, CustomStringConvertible {
    /// Whether APNs may have acted on the request.
    public enum Outcome: Hashable, Sendable {
        /// APNs certainly did not process it: sending it again cannot duplicate a notification.
        case notProcessed
        /// It may have been delivered: a retry risks a duplicate (the same apns-id helps tracing it).
        case unknown
    }

    public struct Code: Hashable, Sendable, CustomStringConvertible {
        public let name: String
        public var description: String { name }

        /// No connection could be established (DNS, TCP, handshake).
        public static let connectFailed = Code(name: "ConnectFailed")
        /// The server's certificate, or ours, was refused during the TLS handshake.
        public static let tlsFailed = Code(name: "TLSFailed")
        /// Every stream was busy and the waiting line was full.
        public static let overloaded = Code(name: "Overloaded")
        /// The request waited longer than the request timeout (for a stream, or for the answer).
        public static let timedOut = Code(name: "TimedOut")
        /// The connection dropped while the request was in flight.
        public static let connectionLost = Code(name: "ConnectionLost")
        /// The server reset the stream.
        public static let streamReset = Code(name: "StreamReset")
        /// The server kept refusing the request unprocessed (GOAWAY, REFUSED_STREAM) past the resend budget.
        public static let refused = Code(name: "Refused")
        /// A provider token could not be signed.
        public static let signingFailed = Code(name: "SigningFailed")
        /// The client is shutting down.
        public static let shutdown = Code(name: "Shutdown")
        /// The HTTP/2 session failed.
        public static let protocolError = Code(name: "ProtocolError")
        /// The request cannot be sent at all (a header value HTTP/2 cannot carry): retrying cannot help.
        public static let invalidRequest = Code(name: "InvalidRequest")

        /// Every code above, for tools that check a code someone typed.
        public static let all: [Code] = [
            connectFailed, tlsFailed, overloaded, timedOut, connectionLost, streamReset, refused, signingFailed, shutdown, protocolError, invalidRequest,
        ]
    }

    public let code: Code
    public let outcome: Outcome
    /// Human-readable context, safe to log.
    public let message: String

    public init(_ code: Code, _ outcome: Outcome, _ message: String) {
        self.code = code
        self.outcome = outcome
        self.message = message
    }

    public var description: String {
        "\(code) (\(outcome == .notProcessed ? "not processed" : "outcome unknown")): \(message)"
    }

    /// What the caller should do: credential trouble stops the credential, a request that cannot be sent
    /// is final, everything else is transient.
    public var disposition: Disposition {
        switch code {
        case .tlsFailed, .signingFailed: .credentialFailure
        case .invalidRequest: .permanent
        case .shutdown: .retryLater
        default: .retryLater
        }
    }
}
