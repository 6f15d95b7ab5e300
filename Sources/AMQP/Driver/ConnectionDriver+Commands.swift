internal import Logging

/// Commands from callers, turned into events of the state machine.
extension ConnectionDriver {
    func execute(_ command: ClientCommand) {
        switch command {
        case .publish(let request, let continuation):
            let id = makeID()
            publishes[id] = PendingPublish(request: request, continuation: continuation)
            run(requestPublish(id, request))
        case .publishBatch(let request, let continuation):
            let batch = makeID()
            batches[batch] = continuation
            let members = request.messages.map { _ in makeID() }
            run(state.batchRequested(batch, members: members, deliveryTag: request.deliveryTag, deliveryGeneration: request.generation))
            for (id, outgoing) in zip(members, request.messages) {
                let single = PublishRequest(exchange: outgoing.exchange, routingKey: outgoing.routingKey, message: outgoing.message, mandatory: outgoing.mandatory, generation: request.generation)
                publishes[id] = PendingPublish(request: single, continuation: nil)
                run(requestPublish(id, single))
                publishes[id] = nil  // written, or refused: either way its outcome is the batch's now
            }
        case .settle(let settlement, let continuation):
            switch settlement.kind {
            case .ack: run(state.settleRequested(settlement.deliveryTag, generation: settlement.generation, ack: true))
            case .reject(let requeue): run(state.settleRequested(settlement.deliveryTag, generation: settlement.generation, ack: false, requeue: requeue))
            }
            continuation.resume()
        case .topology(let request, let continuation):
            continuation.resume(with: Result { () throws(AMQPError) in try runTopology(request) })
        case .consume(let request, let continuation):
            guard state.consumer == nil else {
                request.sink.finish()
                continuation.resume(throwing: AMQPError(.invalidArgument, operation: "consume \(request.queues.joined(separator: ", "))", message: "this client already consumes \(state.consumer!.name); cancel that first"))
                return
            }
            sink = request.sink
            consumeWaiter = continuation
            run(state.consumeRequested(queues: request.queues, prefetch: request.prefetch))
        case .cancelConsuming(let continuation):
            run(state.cancelRequested())
            continuation.resume()
        case .reopen(let generation, let reason, let continuation):
            let actions = state.reopenRequested(generation: generation, reason: reason, now: clock.now)
            if !actions.isEmpty, let connection {
                logger.warning("AMQP connection reopened", metadata: ["endpoint": "\(connection.endpoint)", "reason": "\(reason)"])
            }
            run(actions)
            continuation.resume()
        case .close(let continuation):
            if let continuation { closeWaiters.append(continuation) }
            run(state.closeRequested(now: clock.now, timeout: options.closeTimeout))
        }
    }

    /// A publish, checked first: a message AMQP cannot carry fails alone, before any frame is written.
    private func requestPublish(_ id: PublishID, _ request: PublishRequest) -> [ConnectionAction] {
        let problems = EncodingCheck.problems(
            exchange: request.exchange, routingKey: request.routingKey, properties: request.message.properties,
            extraHeaders: [PublishConfirms<Void>.sequenceHeader: .int(Int64.max)], frameMax: connection?.frameMax ?? AMQPMessage.defaultFrameMax
        )
        guard problems.isEmpty else {
            let message = "the message cannot be encoded: " + problems.map(\.description).joined(separator: "; ")
            return state.publishRefused(id, AMQPError(.invalidArgument, operation: "publish to exchange \"\(request.exchange.prefix(64))\"", message: message))
        }
        return state.publishRequested(id, generation: request.generation)
    }

    private func runTopology(_ request: TopologyRequest) throws(AMQPError) -> UInt32 {
        guard let connection, connection.isUsable, state.closing == nil else {
            throw AMQPError(.notConnected, operation: request.operation, message: state.closing != nil ? "the client is closing" : "the connection is down; reconnecting")
        }
        do {
            switch request {
            case .declare(let exchanges, let queues, let bindings):
                for exchange in exchanges { try connection.declare(exchange) }
                for queue in queues { try connection.declare(queue) }
                for binding in bindings { try connection.declare(binding) }
            case .unbind(let binding): try connection.remove(binding)
            case .checkQueue(let name): return try connection.declare(AMQPQueueDeclaration(name: name), passive: true)
            case .deleteQueue(let name): try connection.deleteQueue(name)
            case .deleteExchange(let name): try connection.deleteExchange(name)
            case .purgeQueue(let name): try connection.purgeQueue(name)
            }
            return 0
        } catch {
            // A refused declaration closed only the topology channel; anything worse takes the connection.
            if !connection.canWork { fail(error) }
            throw error
        }
    }
}
