internal import CRabbitMQ
internal import NIOCore

extension InboundMethod {
    /// Decodes a method frame's payload with rabbitmq-c (`amqp_decode_method`), whose argument decoders
    /// check every length against the payload they are given. Strings that repeat from delivery to
    /// delivery come from `strings`.
    static func decode(_ payload: ByteBuffer, pool: DecodingPool, strings: inout RecentStrings) throws(FrameDecoder.Malformed) -> InboundMethod {
        guard let number = payload.getInteger(at: payload.readerIndex, as: UInt32.self) else {
            throw FrameDecoder.Malformed(detail: "a method frame of \(payload.readableBytes) bytes has no method id")
        }
        return try pool.withPool { (pool) throws(FrameDecoder.Malformed) -> InboundMethod in
            var decoded: UnsafeMutableRawPointer?
            let status = payload.withUnsafeReadableBytes { raw in
                let arguments = amqp_bytes_t(len: raw.count - 4, bytes: UnsafeMutableRawPointer(mutating: raw.baseAddress! + 4))
                return amqp_decode_method(number, pool, arguments, &decoded)
            }
            if status == AMQP_STATUS_UNKNOWN_METHOD.rawValue { return .other(number) }
            guard status == 0, let decoded else {
                throw FrameDecoder.Malformed(detail: "method 0x\(String(number, radix: 16)) does not decode: \(String(cString: amqp_error_string2(status)))")
            }
            return copy(number, decoded, strings: &strings)
        }
    }

    /// Copies the arguments this client uses out of the pool.
    private static func copy(_ number: UInt32, _ decoded: UnsafeMutableRawPointer, strings: inout RecentStrings) -> InboundMethod {
        func load<T>(_ type: T.Type) -> T { decoded.assumingMemoryBound(to: T.self).pointee }
        switch number {
        case MethodID.basicDeliver:
            let deliver = load(amqp_basic_deliver_t.self)
            return .basicDeliver(DeliverInfo(
                consumerTag: strings.string(deliver.consumer_tag), deliveryTag: deliver.delivery_tag, redelivered: deliver.redelivered != 0,
                exchange: strings.string(deliver.exchange), routingKey: strings.string(deliver.routing_key)
            ))
        case MethodID.basicAck:
            let ack = load(amqp_basic_ack_t.self)
            return .basicAck(deliveryTag: ack.delivery_tag, multiple: ack.multiple != 0)
        case MethodID.basicNack:
            let nack = load(amqp_basic_nack_t.self)
            return .basicNack(deliveryTag: nack.delivery_tag, multiple: nack.multiple != 0)
        case MethodID.basicReturn:
            let returned = load(amqp_basic_return_t.self)
            return .basicReturn(ReturnInfo(
                replyCode: returned.reply_code, replyText: String(amqpBytes: returned.reply_text),
                exchange: strings.string(returned.exchange), routingKey: strings.string(returned.routing_key)
            ))
        case MethodID.basicConsumeOk:
            return .basicConsumeOk(consumerTag: String(amqpBytes: load(amqp_basic_consume_ok_t.self).consumer_tag))
        case MethodID.basicCancel:
            return .basicCancel(consumerTag: String(amqpBytes: load(amqp_basic_cancel_t.self).consumer_tag))
        case MethodID.basicCancelOk:
            return .basicCancelOk(consumerTag: String(amqpBytes: load(amqp_basic_cancel_ok_t.self).consumer_tag))
        case MethodID.queueDeclareOk:
            let ok = load(amqp_queue_declare_ok_t.self)
            return .queueDeclareOk(queue: String(amqpBytes: ok.queue), messageCount: ok.message_count, consumerCount: ok.consumer_count)
        case MethodID.channelClose:
            let close = load(amqp_channel_close_t.self)
            return .channelClose(BrokerClose(replyCode: close.reply_code, replyText: String(amqpBytes: close.reply_text), classID: close.class_id, methodID: close.method_id))
        case MethodID.connectionClose:
            let close = load(amqp_connection_close_t.self)
            return .connectionClose(BrokerClose(replyCode: close.reply_code, replyText: String(amqpBytes: close.reply_text), classID: close.class_id, methodID: close.method_id))
        case MethodID.connectionStart:
            let start = load(amqp_connection_start_t.self)
            let mechanisms = String(amqpBytes: start.mechanisms).split(separator: " ").map(String.init)
            return .connectionStart(serverProperties: FieldDecoding.table(start.server_properties), mechanisms: mechanisms)
        case MethodID.connectionTune:
            let tune = load(amqp_connection_tune_t.self)
            return .connectionTune(channelMax: tune.channel_max, frameMax: tune.frame_max, heartbeat: tune.heartbeat)
        case MethodID.connectionBlocked:
            return .connectionBlocked(reason: String(amqpBytes: load(amqp_connection_blocked_t.self).reason))
        case MethodID.channelFlow:
            return .channelFlow(active: load(amqp_channel_flow_t.self).active != 0)
        case MethodID.connectionSecure: return .connectionSecure
        case MethodID.connectionOpenOk: return .connectionOpenOk
        case MethodID.connectionCloseOk: return .connectionCloseOk
        case MethodID.connectionUnblocked: return .connectionUnblocked
        case MethodID.channelOpenOk: return .channelOpenOk
        case MethodID.channelCloseOk: return .channelCloseOk
        default: return .other(number)
        }
    }
}
