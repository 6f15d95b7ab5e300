internal import CRabbitMQ

/// rabbitmq-c's status codes this client reports itself: the library decodes and encodes, the event
/// loop does the I/O, and failures below AMQP keep the library's vocabulary (and its texts).
extension AMQPError {
    static let badDataStatus = AMQP_STATUS_BAD_AMQP_DATA.rawValue
    static let socketErrorStatus = AMQP_STATUS_SOCKET_ERROR.rawValue
    static let timeoutStatus = AMQP_STATUS_TIMEOUT.rawValue
    static let heartbeatTimeoutStatus = AMQP_STATUS_HEARTBEAT_TIMEOUT.rawValue
    static let unexpectedStateStatus = AMQP_STATUS_UNEXPECTED_STATE.rawValue
    static let tlsErrorStatus = AMQP_STATUS_SSL_ERROR.rawValue
    static let hostnameVerifyFailedStatus = AMQP_STATUS_SSL_HOSTNAME_VERIFY_FAILED.rawValue
    static let peerVerifyFailedStatus = AMQP_STATUS_SSL_PEER_VERIFY_FAILED.rawValue

    /// A failure with one of the statuses above and rabbitmq-c's text for it, plus `detail`.
    static func library(_ status: Int32, _ operation: String, _ detail: String? = nil) -> AMQPError {
        let text = String(cString: amqp_error_string2(status))
        return AMQPError(.library(status: status), operation: operation, message: detail.map { "\(text): \($0)" } ?? text)
    }
}
