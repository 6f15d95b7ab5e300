internal import Logging
internal import Synchronization

extension ConnectionDriver {
    func execute(_ command: ClientCommand) {
        switch command {
        case .publish(let request, let continuation):
            publish(request, continuation)
        case .settle(let settlement, let continuation):
            settle(settlement)
            continuation.resume()
        case .topology(let request, let continuation):
            continuation.resume(with: Result { () throws(AMQPError) in try runTopology(request) })
        case .consume(let request, let continuation):
            continuation.resume(with: Result { () throws(AMQPError) in try consume(request) })
        case .cancelConsuming(let continuation):
            stopConsuming()
            continuation.resume()
        case .close(let continuation):
            beginClose(continuation)
        }
    }

    /// The failure for work that needs a live connection and finds none.
    func notConnected(_ operation: String) -> AMQPError {
        AMQPError(.notConnected, operation: operation, message: closing != nil ? "the client is closing" : "the connection is down; reconnecting")
    }

    private func publish(_ request: PublishRequest, _ continuation: CheckedContinuation<AMQPPublishOutcome, any Error>) {
        guard let connection, connection.canWork, closing == nil else {
            continuation.resume(throwing: notConnected("publish to exchange \"\(request.exchange)\""))
            return
        }
        if let generation = request.generation, generation != counters.generation.load(ordering: .relaxed) {
            continuation.resume(throwing: AMQPError(.notConnected, operation: "publish to exchange \"\(request.exchange)\"", message: "the connection it was meant for (generation \(generation)) is gone"))
            return
        }
        let sequenceHeader = [PublishConfirms<Void>.sequenceHeader: AMQPFieldValue.int(Int64(confirms.nextSequence))]
        let problems = EncodingCheck.problems(
            exchange: request.exchange, routingKey: request.routingKey, properties: request.message.properties,
            extraHeaders: sequenceHeader, frameMax: connection.frameMax
        )
        guard problems.isEmpty else {
            // Refused before any frame is written: this message fails alone, the connection stays.
            let message = "the message cannot be encoded: " + problems.map(\.description).joined(separator: "; ")
            continuation.resume(throwing: AMQPError(.invalidArgument, operation: "publish to exchange \"\(request.exchange.prefix(64))\"", message: message))
            return
        }
        do {
            try connection.publish(exchange: request.exchange, routingKey: request.routingKey, message: request.message, mandatory: request.mandatory, extraHeaders: sequenceHeader)
        } catch {
            // Part of the message may have reached the broker.
            continuation.resume(throwing: AMQPError.outcomeUnknown(after: error))
            connectionFailed(error)
            return
        }
        confirms.sent(continuation)
        counters.unconfirmed.store(confirms.count, ordering: .relaxed)
    }

    /// Acks or rejects on the channel that delivered; a tag from an older generation would name another
    /// message (or none) on the current channel, and the broker has requeued that delivery already.
    private func settle(_ settlement: Settlement) {
        guard let connection, connection.canWork, settlement.generation == counters.generation.load(ordering: .relaxed) else {
            logger.debug("AMQP dropping ack/reject from an old connection", metadata: ["delivery_tag": "\(settlement.deliveryTag)", "generation": "\(settlement.generation)"])
            return
        }
        do {
            switch settlement.kind {
            case .ack: try connection.ack(deliveryTag: settlement.deliveryTag)
            case .reject(let requeue): try connection.reject(deliveryTag: settlement.deliveryTag, requeue: requeue)
            }
        } catch {
            connectionFailed(error)
        }
    }

    private func runTopology(_ request: TopologyRequest) throws(AMQPError) {
        guard let connection, connection.isUsable, closing == nil else { throw notConnected(request.operation) }
        do {
            switch request {
            case .declare(let exchanges, let queues, let bindings):
                for exchange in exchanges { try connection.declare(exchange) }
                for queue in queues { try connection.declare(queue) }
                for binding in bindings { try connection.declare(binding) }
            case .deleteQueue(let name): try connection.deleteQueue(name)
            case .deleteExchange(let name): try connection.deleteExchange(name)
            case .purgeQueue(let name): try connection.purgeQueue(name)
            }
        } catch {
            // A refused declaration closed only the topology channel; anything worse takes the connection.
            if !connection.canWork { connectionFailed(error) }
            throw error
        }
    }

    private func consume(_ request: ConsumeRequest) throws(AMQPError) {
        if let consumer {
            request.stream.finish()
            throw AMQPError(.invalidArgument, operation: "consume \(request.queue)", message: "this client already consumes \(consumer.queue); cancel that first")
        }
        guard let connection, connection.canWork, closing == nil else {
            request.stream.finish()
            throw notConnected("consume \(request.queue)")
        }
        consumer = ConsumerRegistration(queue: request.queue, prefetch: request.prefetch, stream: request.stream)
        do {
            try startConsumer()
        } catch {
            consumer = nil
            request.stream.finish()
            if !connection.canWork { connectionFailed(error) }
            throw error
        }
    }

    /// Synchronous `basic.cancel`, then hands out the deliveries the broker sent before its cancel-ok (they
    /// are queued inside rabbitmq-c by now), then finishes the stream: nothing is delivered after this.
    func stopConsuming() {
        guard let registration = consumer else { return }
        if let tag = registration.consumerTag, let connection, connection.canWork {
            do {
                try connection.cancel(consumerTag: tag)
                pumpFrames(untilDrained: true)
            } catch {
                connectionFailed(error)
            }
        }
        consumer = nil
        counters.consuming.store(false, ordering: .relaxed)
        nextConsumerAttempt = nil
        registration.stream.finish()
    }
}
