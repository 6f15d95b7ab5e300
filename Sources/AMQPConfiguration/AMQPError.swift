/// A failure talking to the broker, with what was being done and who failed: the library, or the broker.
///
/// Every rabbitmq-c status code and RPC reply becomes this error in one place (`AMQPError.check` in
/// the AMQP module), so callers branch on ``Code`` instead of C enums; configuration checks throw it too.
public struct AMQPError: Error, Hashable, Sendable, CustomStringConvertible {
    /// Who failed, and how: what callers branch on.
    public enum Code: Hashable, Sendable {
        /// rabbitmq-c reported a status (socket error, timeout, heartbeat timeout …); the raw status is kept.
        case library(status: Int32)
        /// The broker closed the channel or connection with an AMQP reply code (e.g. 404 NOT_FOUND, 406).
        case brokerClosed(replyCode: UInt16)
        /// The socket reached end of file or the broker closed the connection or channel: the broker or the
        /// network went away. For a publish this means its outcome is unknown: the broker may or may not
        /// have taken the message.
        case connectionLost
        /// There was no usable connection, so nothing was sent: `connect()` has not succeeded yet, the client
        /// is between reconnect attempts, or `close()` was called. Safe to retry later.
        case notConnected
        /// The caller asked for something invalid: a malformed URL, an unreadable password file, a second
        /// consumer on one client. Retrying cannot help.
        case invalidArgument
    }

    /// The kind of failure.
    public let code: Code
    /// What the worker was doing, e.g. "open socket to 127.0.0.1:5672".
    public let operation: String
    /// rabbitmq-c's or the broker's explanation. Never contains credentials.
    public let message: String
    /// The broker's reply code behind this error, when the broker closed the channel or connection
    /// (e.g. 404 NOT_FOUND for a publish to an exchange that does not exist), also when the error
    /// reported to a publisher is "outcome unknown".
    public let brokerReplyCode: UInt16?

    /// An error with its context; `message` must not contain credentials.
    public init(_ code: Code, operation: String, message: String, brokerReplyCode: UInt16? = nil) {
        self.code = code
        self.operation = operation
        self.message = message
        if case .brokerClosed(let replyCode) = code {
            self.brokerReplyCode = brokerReplyCode ?? replyCode
        } else {
            self.brokerReplyCode = brokerReplyCode
        }
    }

    /// "AMQP: <operation> failed: <message>".
    public var description: String { "AMQP: \(operation) failed: \(message)" }

    /// Whether a new connection could succeed where this one failed (as opposed to, say, bad credentials).
    public var isConnectionLevel: Bool {
        switch code {
        case .connectionLost, .library, .notConnected: true
        case .brokerClosed(let replyCode): replyCode == 320 || replyCode == 501 || replyCode == 504
        case .invalidArgument: false
        }
    }
}
