internal import CRabbitMQ

extension AMQPConnection {
    /// Puts the work channel in publisher-confirm mode; publishes are numbered from 1 after this.
    func selectConfirms() throws(AMQPError) {
        uncork()
        amqp_confirm_select(state, Self.workChannel)
        try checkReply(channel: Self.workChannel, "confirm.select on \(endpoint)")
    }

    /// Limits unacknowledged deliveries to this channel's consumers.
    func setPrefetch(_ count: UInt16) throws(AMQPError) {
        uncork()
        amqp_basic_qos(state, Self.workChannel, 0, count, 0)
        try checkReply(channel: Self.workChannel, "basic.qos \(count)")
    }

    /// Starts a consumer with manual acks and returns the broker-assigned consumer tag.
    func consume(queue: String) throws(AMQPError) -> String {
        uncork()
        let arena = CArena()
        let ok = withExtendedLifetime(arena) {
            amqp_basic_consume(state, Self.workChannel, arena.bytes(queue), amqp_bytes_t(len: 0, bytes: nil), 0, 0, 0, amqp_table_t(num_entries: 0, entries: nil))
        }
        try checkReply(channel: Self.workChannel, "consume \(queue)")
        guard let ok else { throw AMQPError.protocolViolation("consume \(queue)", "basic.consume-ok without arguments") }
        return String(amqpBytes: ok.pointee.consumer_tag)
    }

    /// `basic.cancel`, waiting for cancel-ok; deliveries sent before it are queued in rabbitmq-c meanwhile.
    func cancel(consumerTag: String) throws(AMQPError) {
        uncork()
        let arena = CArena()
        _ = withExtendedLifetime(arena) { amqp_basic_cancel(state, Self.workChannel, arena.bytes(consumerTag)) }
        try checkReply(channel: Self.workChannel, "cancel consumer \(consumerTag)")
    }

    /// Sends one message (method, header and body frames); the confirm comes later as a frame.
    func publish(exchange: String, routingKey: String, message: AMQPMessage, mandatory: Bool, extraHeaders: [String: AMQPFieldValue]) throws(AMQPError) {
        let arena = CArena()
        var properties = arena.properties(message.properties, extraHeaders: extraHeaders)
        let status = withExtendedLifetime(arena) {
            amqp_basic_publish(state, Self.workChannel, arena.bytes(exchange), arena.bytes(routingKey), mandatory ? 1 : 0, 0, &properties, arena.bytes(message.body))
        }
        try check(status, "publish to exchange \"\(exchange)\"")
    }

    /// Acks `deliveryTag`, and with `multiple` every unacked delivery before it too.
    func ack(deliveryTag: UInt64, multiple: Bool = false) throws(AMQPError) {
        try check(amqp_basic_ack(state, Self.workChannel, deliveryTag, multiple ? 1 : 0), "ack delivery \(deliveryTag)")
    }

    func reject(deliveryTag: UInt64, requeue: Bool) throws(AMQPError) {
        try check(amqp_basic_reject(state, Self.workChannel, deliveryTag, requeue ? 1 : 0), "reject delivery \(deliveryTag)")
    }
}
