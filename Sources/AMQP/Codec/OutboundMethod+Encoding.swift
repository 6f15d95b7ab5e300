internal import CRabbitMQ

extension OutboundMethod {
    /// The method's number and its rabbitmq-c argument struct, built in `arena` for `amqp_encode_method`.
    func arguments(in arena: EncodingArena) -> (id: UInt32, decoded: UnsafeMutableRawPointer) {
        func make<T>(_ id: UInt32, _ value: T) -> (UInt32, UnsafeMutableRawPointer) {
            let pointer = arena.allocate(T.self, count: 1)
            pointer.initialize(to: value)
            return (id, UnsafeMutableRawPointer(pointer))
        }
        let none = amqp_table_t(num_entries: 0, entries: nil)
        switch self {
        case .basicAck(let tag, let multiple):
            return make(MethodID.basicAck, amqp_basic_ack_t(delivery_tag: tag, multiple: multiple ? 1 : 0))
        case .basicReject(let tag, let requeue):
            return make(MethodID.basicReject, amqp_basic_reject_t(delivery_tag: tag, requeue: requeue ? 1 : 0))
        case .connectionStartOk(let properties, let mechanism, let response, let locale):
            return make(MethodID.connectionStartOk, amqp_connection_start_ok_t(
                client_properties: arena.table(properties), mechanism: arena.bytes(mechanism), response: arena.bytes(response), locale: arena.bytes(locale)
            ))
        case .connectionTuneOk(let channelMax, let frameMax, let heartbeat):
            return make(MethodID.connectionTuneOk, amqp_connection_tune_ok_t(channel_max: channelMax, frame_max: frameMax, heartbeat: heartbeat))
        case .connectionOpen(let virtualHost):
            return make(MethodID.connectionOpen, amqp_connection_open_t(virtual_host: arena.bytes(virtualHost), capabilities: arena.bytes(""), insist: 0))
        case .connectionClose(let code, let text):
            return make(MethodID.connectionClose, amqp_connection_close_t(reply_code: code, reply_text: arena.bytes(text), class_id: 0, method_id: 0))
        case .connectionCloseOk:
            return make(MethodID.connectionCloseOk, amqp_connection_close_ok_t(dummy: 0))
        case .channelOpen:
            return make(MethodID.channelOpen, amqp_channel_open_t(out_of_band: arena.bytes("")))
        case .channelFlowOk(let active):
            return make(MethodID.channelFlowOk, amqp_channel_flow_ok_t(active: active ? 1 : 0))
        case .channelClose(let code, let text):
            return make(MethodID.channelClose, amqp_channel_close_t(reply_code: code, reply_text: arena.bytes(text), class_id: 0, method_id: 0))
        case .channelCloseOk:
            return make(MethodID.channelCloseOk, amqp_channel_close_ok_t(dummy: 0))
        case .confirmSelect:
            return make(MethodID.confirmSelect, amqp_confirm_select_t(nowait: 0))
        case .exchangeDeclare(let exchange):
            return make(MethodID.exchangeDeclare, amqp_exchange_declare_t(
                ticket: 0, exchange: arena.bytes(exchange.name), type: arena.bytes(exchange.type.rawValue), passive: 0,
                durable: exchange.durable ? 1 : 0, auto_delete: 0, internal: 0, nowait: 0, arguments: none
            ))
        case .exchangeDelete(let name):
            return make(MethodID.exchangeDelete, amqp_exchange_delete_t(ticket: 0, exchange: arena.bytes(name), if_unused: 0, nowait: 0))
        case .exchangeBind(let destination, let source, let key):
            return make(MethodID.exchangeBind, amqp_exchange_bind_t(
                ticket: 0, destination: arena.bytes(destination), source: arena.bytes(source), routing_key: arena.bytes(key), nowait: 0, arguments: none
            ))
        case .exchangeUnbind(let destination, let source, let key):
            return make(MethodID.exchangeUnbind, amqp_exchange_unbind_t(
                ticket: 0, destination: arena.bytes(destination), source: arena.bytes(source), routing_key: arena.bytes(key), nowait: 0, arguments: none
            ))
        case .queueDeclare(let queue, let passive):
            return make(MethodID.queueDeclare, amqp_queue_declare_t(
                ticket: 0, queue: arena.bytes(queue.name), passive: passive ? 1 : 0, durable: queue.durable ? 1 : 0, exclusive: 0,
                auto_delete: 0, nowait: 0, arguments: arena.table(queue.arguments)
            ))
        case .queueBind(let queue, let exchange, let key):
            return make(MethodID.queueBind, amqp_queue_bind_t(
                ticket: 0, queue: arena.bytes(queue), exchange: arena.bytes(exchange), routing_key: arena.bytes(key), nowait: 0, arguments: none
            ))
        case .queueUnbind(let queue, let exchange, let key):
            return make(MethodID.queueUnbind, amqp_queue_unbind_t(
                ticket: 0, queue: arena.bytes(queue), exchange: arena.bytes(exchange), routing_key: arena.bytes(key), arguments: none
            ))
        case .queuePurge(let name):
            return make(MethodID.queuePurge, amqp_queue_purge_t(ticket: 0, queue: arena.bytes(name), nowait: 0))
        case .queueDelete(let name):
            return make(MethodID.queueDelete, amqp_queue_delete_t(ticket: 0, queue: arena.bytes(name), if_unused: 0, if_empty: 0, nowait: 0))
        case .basicQos(let count):
            return make(MethodID.basicQos, amqp_basic_qos_t(prefetch_size: 0, prefetch_count: count, global: 0))
        case .basicConsume(let queue):
            return make(MethodID.basicConsume, amqp_basic_consume_t(
                ticket: 0, queue: arena.bytes(queue), consumer_tag: arena.bytes(""), no_local: 0, no_ack: 0, exclusive: 0, nowait: 0, arguments: none
            ))
        case .basicCancel(let tag):
            return make(MethodID.basicCancel, amqp_basic_cancel_t(consumer_tag: arena.bytes(tag), nowait: 0))
        }
    }
}
