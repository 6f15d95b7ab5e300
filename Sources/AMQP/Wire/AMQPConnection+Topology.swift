internal import CRabbitMQ

extension AMQPConnection {
    func declare(_ exchange: AMQPExchangeDeclaration) throws(AMQPError) {
        try onTopologyChannel("declare exchange \(exchange.name)") { arena in
            amqp_exchange_declare(state, Self.topologyChannel, arena.bytes(exchange.name), arena.bytes(exchange.type.rawValue), 0, exchange.durable ? 1 : 0, 0, 0, amqp_table_t(num_entries: 0, entries: nil))
        }
    }

    /// Declares `queue`, or with `passive` only checks that it exists (404 otherwise). Returns the
    /// count of ready messages the broker reported in `declare-ok`.
    @discardableResult
    func declare(_ queue: AMQPQueueDeclaration, passive: Bool = false) throws(AMQPError) -> UInt32 {
        try onTopologyChannel(passive ? "find queue \(queue.name)" : "declare queue \(queue.name)") { arena in
            // Read at once: the answer lives in a buffer the next library call recycles.
            amqp_queue_declare(state, Self.topologyChannel, arena.bytes(queue.name), passive ? 1 : 0, queue.durable ? 1 : 0, 0, 0, arena.table(queue.arguments))?.pointee.message_count ?? 0
        }
    }

    func declare(_ binding: AMQPBindingDeclaration) throws(AMQPError) {
        try onTopologyChannel("bind \(binding.destinationType) \(binding.destinationName) to \(binding.exchange) with \"\(binding.routingKey)\"") { arena in
            let none = amqp_table_t(num_entries: 0, entries: nil)
            switch binding.destination {
            case .queue(let queue):
                _ = amqp_queue_bind(state, Self.topologyChannel, arena.bytes(queue), arena.bytes(binding.exchange), arena.bytes(binding.routingKey), none)
            case .exchange(let destination):
                _ = amqp_exchange_bind(state, Self.topologyChannel, arena.bytes(destination), arena.bytes(binding.exchange), arena.bytes(binding.routingKey), none)
            }
        }
    }

    /// Removes a binding; removing one that does not exist is not an error (the exchange and the
    /// destination must exist).
    func remove(_ binding: AMQPBindingDeclaration) throws(AMQPError) {
        try onTopologyChannel("unbind \(binding.destinationType) \(binding.destinationName) from \(binding.exchange)") { arena in
            let none = amqp_table_t(num_entries: 0, entries: nil)
            switch binding.destination {
            case .queue(let queue):
                _ = amqp_queue_unbind(state, Self.topologyChannel, arena.bytes(queue), arena.bytes(binding.exchange), arena.bytes(binding.routingKey), none)
            case .exchange(let destination):
                _ = amqp_exchange_unbind(state, Self.topologyChannel, arena.bytes(destination), arena.bytes(binding.exchange), arena.bytes(binding.routingKey), none)
            }
        }
    }

    func deleteQueue(_ name: String) throws(AMQPError) {
        try onTopologyChannel("delete queue \(name)") { arena in amqp_queue_delete(state, Self.topologyChannel, arena.bytes(name), 0, 0) }
    }

    func deleteExchange(_ name: String) throws(AMQPError) {
        try onTopologyChannel("delete exchange \(name)") { arena in amqp_exchange_delete(state, Self.topologyChannel, arena.bytes(name), 0) }
    }

    func purgeQueue(_ name: String) throws(AMQPError) {
        try onTopologyChannel("purge queue \(name)") { arena in amqp_queue_purge(state, Self.topologyChannel, arena.bytes(name)) }
    }

    /// Runs one RPC on the topology channel, reopening it first if the broker closed it (e.g. after a 406).
    @discardableResult
    private func onTopologyChannel<Result>(_ operation: @autoclosure () -> String, _ call: (CArena) -> Result) throws(AMQPError) -> Result {
        if !isTopologyChannelOpen { try openChannel(Self.topologyChannel) }
        uncork()
        let arena = CArena()
        let result = withExtendedLifetime(arena) { call(arena) }
        try checkReply(channel: Self.topologyChannel, operation())
        return result
    }
}
