internal import CRabbitMQ

extension InboundFrame {
    /// Copies a frame out of rabbitmq-c's buffers; after this the buffers may be released. Names that
    /// repeat from message to message come from `strings`.
    init(_ frame: amqp_frame_t, strings: inout RecentStrings) {
        channel = frame.channel
        switch Int32(frame.frame_type) {
        case AMQP_FRAME_METHOD:
            payload = Self.method(frame.payload.method, strings: &strings)
        case AMQP_FRAME_HEADER:
            let header = frame.payload.properties
            let properties = header.decoded.map { FieldDecoding.properties($0.assumingMemoryBound(to: amqp_basic_properties_t.self).pointee, strings: &strings) } ?? AMQPProperties()
            payload = .header(properties, bodySize: header.body_size)
        case AMQP_FRAME_BODY:
            let fragment = frame.payload.body_fragment
            payload = .body(fragment.bytes.map { Array(UnsafeRawBufferPointer(start: $0, count: fragment.len)) } ?? [])
        default:
            payload = .other(methodID: 0)
        }
    }

    private static func method(_ method: amqp_method_t, strings: inout RecentStrings) -> Payload {
        guard let decoded = method.decoded else { return .other(methodID: method.id) }
        func load<T>(_ type: T.Type) -> T { decoded.assumingMemoryBound(to: T.self).pointee }
        switch method.id {
        case CRabbitMQ_method_basic_deliver():
            let deliver = load(amqp_basic_deliver_t.self)
            return .deliver(DeliverInfo(
                consumerTag: strings.string(deliver.consumer_tag), deliveryTag: deliver.delivery_tag, redelivered: deliver.redelivered != 0,
                exchange: strings.string(deliver.exchange), routingKey: strings.string(deliver.routing_key)
            ))
        case CRabbitMQ_method_basic_return():
            let returned = load(amqp_basic_return_t.self)
            return .returned(ReturnInfo(
                replyCode: returned.reply_code, replyText: String(amqpBytes: returned.reply_text),
                exchange: strings.string(returned.exchange), routingKey: strings.string(returned.routing_key)
            ))
        case CRabbitMQ_method_basic_ack():
            let ack = load(amqp_basic_ack_t.self)
            return .ack(deliveryTag: ack.delivery_tag, multiple: ack.multiple != 0)
        case CRabbitMQ_method_basic_nack():
            let nack = load(amqp_basic_nack_t.self)
            return .nack(deliveryTag: nack.delivery_tag, multiple: nack.multiple != 0)
        case CRabbitMQ_method_basic_cancel():
            return .cancel(consumerTag: String(amqpBytes: load(amqp_basic_cancel_t.self).consumer_tag))
        case CRabbitMQ_method_channel_close():
            let close = load(amqp_channel_close_t.self)
            return .channelClose(replyCode: close.reply_code, replyText: String(amqpBytes: close.reply_text))
        case CRabbitMQ_method_connection_close():
            let close = load(amqp_connection_close_t.self)
            return .connectionClose(replyCode: close.reply_code, replyText: String(amqpBytes: close.reply_text))
        case CRabbitMQ_method_connection_blocked():
            return .blocked(reason: String(amqpBytes: load(amqp_connection_blocked_t.self).reason))
        case CRabbitMQ_method_connection_unblocked():
            return .unblocked
        default:
            return .other(methodID: method.id)
        }
    }
}
