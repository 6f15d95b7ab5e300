internal import CRabbitMQ

extension AMQPError {
    /// Turns a rabbitmq-c status code into an error; `AMQP_STATUS_OK` (0) passes.
    static func check(_ status: Int32, _ operation: @autoclosure () -> String) throws(AMQPError) {
        guard status != AMQP_STATUS_OK.rawValue else { return }
        throw AMQPError(.library(status: status), operation: operation(), message: String(cString: amqp_error_string2(status)))
    }

    /// Turns an RPC reply into an error; `AMQP_RESPONSE_NORMAL` passes.
    static func check(reply: amqp_rpc_reply_t, _ operation: @autoclosure () -> String) throws(AMQPError) {
        switch reply.reply_type {
        case AMQP_RESPONSE_NORMAL:
            return
        case AMQP_RESPONSE_NONE:
            throw AMQPError(.connectionLost, operation: operation(), message: "the broker closed the socket")
        case AMQP_RESPONSE_LIBRARY_EXCEPTION:
            try check(reply.library_error == 0 ? AMQP_STATUS_UNEXPECTED_STATE.rawValue : reply.library_error, operation())
            return
        default:
            throw brokerClosed(reply.reply, operation())
        }
    }

    /// Reads the reply code and text of a `channel.close` or `connection.close` the broker sent.
    static func brokerClosed(_ method: amqp_method_t, _ operation: String) -> AMQPError {
        if method.id == CRabbitMQ_method_channel_close(), let decoded = method.decoded {
            let close = decoded.assumingMemoryBound(to: amqp_channel_close_t.self).pointee
            return AMQPError(.brokerClosed(replyCode: close.reply_code), operation: operation, message: "channel closed by the broker: \(String(amqpBytes: close.reply_text))")
        }
        if method.id == CRabbitMQ_method_connection_close(), let decoded = method.decoded {
            let close = decoded.assumingMemoryBound(to: amqp_connection_close_t.self).pointee
            return AMQPError(.brokerClosed(replyCode: close.reply_code), operation: operation, message: "connection closed by the broker: \(String(amqpBytes: close.reply_text))")
        }
        return AMQPError(.brokerClosed(replyCode: 0), operation: operation, message: "unexpected method 0x\(String(method.id, radix: 16)) from the broker")
    }
}

extension AMQPError {
    /// The broker sent frames in an order AMQP 0-9-1 does not allow (e.g. a body frame without a method).
    static func protocolViolation(_ operation: String, _ detail: String) -> AMQPError {
        AMQPError(.library(status: AMQP_STATUS_UNEXPECTED_STATE.rawValue), operation: operation, message: "unexpected frame from the broker: \(detail)")
    }

    /// A publish whose confirm will never come: the channel it went out on is gone.
    static func outcomeUnknown(after cause: AMQPError) -> AMQPError {
        AMQPError(
            .connectionLost, operation: "publish",
            message: "the channel closed before the broker confirmed, so the outcome is unknown (\(cause.operation): \(cause.message))",
            brokerReplyCode: cause.brokerReplyCode
        )
    }
}

extension String {
    /// Copies an `amqp_bytes_t` (library-owned, released with the frame buffers) into a Swift string.
    init(amqpBytes bytes: amqp_bytes_t) {
        guard let pointer = bytes.bytes, bytes.len > 0 else {
            self = ""
            return
        }
        self = String(decoding: UnsafeRawBufferPointer(start: pointer, count: bytes.len), as: UTF8.self)
    }
}
