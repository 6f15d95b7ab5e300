internal import Logging
internal import NIOCore
internal import NumberedWindows

/// Commands from callers, turned into events of the state machine.
extension ConnectionDriver {
    /// Runs `command` now (the caller is on the loop) or queues it while the first connection is tried.
    func submit(_ command: ClientCommand) {
        loop.assertInEventLoop()
        switch phase {
        case .idle:
            if case .connect(let window, let continuation) = command {
                connect(retryingFor: window, continuation)
            } else if command.isClose {
                phase = .closed
                command.fail(AMQPError(.notConnected, operation: command.operation, message: "the client was not connected"))
            } else {
                command.fail(AMQPError(.notConnected, operation: command.operation, message: "the client is not connected; call connect() first"))
            }
        case .starting(var queued):
            if case .connect(_, let continuation) = command {
                continuation.resume(throwing: AMQPError(.invalidArgument, operation: "connect", message: "connect() is already in progress"))
            } else if command.isClose {
                closeWhileStarting(command)
            } else {
                queued.append(command)
                phase = .starting(queued: queued)
            }
        case .running:
            execute(command)
        case .closed:
            command.fail(AMQPError(.notConnected, operation: command.operation, message: "the client is closed"))
        }
    }

    func execute(_ command: ClientCommand) {
        switch command {
        case .connect(_, let continuation):
            continuation.resume()
        case .publish(let request, let continuation):
            let id = makeID()
            publishes.insert(PendingPublish(request: request, continuation: continuation), at: id)
            run(requestPublish(id, request))
        case .publishBatch(let request, let answer):
            let batch = makeID()
            batches.insert(answer, at: batch)
            let members = makeIDs(request.messages.count)
            run(state.batchRequested(batch, members: members, deliveryTag: request.deliveryTag, deliveryGeneration: request.generation))
            for (id, outgoing) in zip(members, request.messages) {
                let single = PublishRequest(exchange: outgoing.exchange, routingKey: outgoing.routingKey, message: outgoing.message, mandatory: outgoing.mandatory, generation: request.generation)
                // Written (or refused) within this `run`, straight from here: a member's outcome is its
                // batch's, so it never waits in `publishes`.
                memberBeingWritten = (id, single)
                run(requestPublish(id, single))
                memberBeingWritten = nil
            }
        case .settle(let settlement, let continuation):
            settle(settlement)
            continuation.resume()
        case .topology(let request, let continuation):
            runTopology(request) { continuation.resume(with: $0) }
        case .consume(let request, let continuation):
            guard state.consumer == nil else {
                request.sink.finish()
                continuation.resume(throwing: AMQPError(.invalidArgument, operation: "consume \(request.queues.map(\.name).joined(separator: ", "))", message: "this client already consumes \(state.consumer!.name); cancel that first"))
                return
            }
            sink = request.sink
            consumeWaiter = continuation
            run(state.consumeRequested(queues: request.queues))
        case .cancelConsuming(let continuation):
            // Answered once the broker confirmed the cancel and the stream ended (see `finishDeliveries`).
            cancelWaiters.append(continuation)
            run(state.cancelRequested())
            if state.consumer == nil { resumeCancelWaiters() }
        case .reopen(let generation, let reason, let continuation):
            let actions = state.reopenRequested(generation: generation, reason: reason, now: now())
            if !actions.isEmpty, let connection {
                logger.warning("AMQP connection reopened", metadata: ["endpoint": "\(connection.endpoint)", "reason": "\(reason)"])
            }
            run(actions)
            continuation.resume()
        case .close(let continuation):
            if let continuation { closeWaiters.append(continuation) }
            run(state.closeRequested(now: now(), timeout: options.closeTimeout))
            scheduleEndOfTick()
        }
    }

    /// An ack (written with the others of this tick, coalesced) or a reject (written now).
    func settle(_ settlement: Settlement) {
        loop.assertInEventLoop()
        guard case .running = phase else { return }
        switch settlement.kind {
        case .ack: run(state.settleRequested(settlement.deliveryTag, generation: settlement.generation, ack: true))
        case .reject(let requeue): run(state.settleRequested(settlement.deliveryTag, generation: settlement.generation, ack: false, requeue: requeue))
        }
        scheduleEndOfTick()
    }

    /// The header every publish gets, at its largest: what the check makes room for (built once).
    static let sequenceHeaderAtMost: [String: AMQPFieldValue] = [PublishConfirms<Void>.sequenceHeader: .int(Int64.max)]

    /// A publish, checked first: a message AMQP cannot carry fails alone, before any frame is written.
    private func requestPublish(_ id: PublishID, _ request: PublishRequest) -> [ConnectionAction] {
        let problems = EncodingCheck.problems(
            exchange: request.exchange, routingKey: request.routingKey, properties: request.message.properties,
            extraHeaders: Self.sequenceHeaderAtMost, frameMax: connection?.frameMax ?? AMQPMessage.defaultFrameMax
        )
        guard problems.isEmpty else {
            let message = "the message cannot be encoded: " + problems.map(\.description).joined(separator: "; ")
            return state.publishRefused(id, AMQPError(.invalidArgument, operation: "publish to exchange \"\(request.exchange.prefix(64))\"", message: message))
        }
        return state.publishRequested(id, generation: request.generation)
    }

    /// Runs a topology request's calls one after another on the topology channel; the first refusal
    /// ends it (a refusal closes only that channel; anything worse takes the connection).
    private func runTopology(_ request: TopologyRequest, _ done: @escaping (Result<AMQPQueueCounts, AMQPError>) -> Void) {
        guard let connection, connection.isOpen, !state.isClosing else {
            done(.failure(AMQPError(.notConnected, operation: request.operation, message: state.isClosing ? "the client is closing" : "the connection is down; reconnecting")))
            return
        }
        var calls = request.calls[...]
        func next(_ counts: AMQPQueueCounts) {
            guard let call = calls.popFirst() else {
                done(.success(counts))
                return
            }
            let problem = call.method.encodingProblem
            if let problem {
                done(.failure(AMQPError(.invalidArgument, operation: call.operation, message: problem)))
                return
            }
            connection.call(call.method, on: AMQPConnection.topologyChannel, operation: call.operation) { result in
                switch result {
                case .success(.queueDeclareOk(_, let messages, let consumers)): next(AMQPQueueCounts(messages: Int(messages), consumers: Int(consumers)))
                case .success: next(counts)
                case .failure(let error): done(.failure(error))
                }
            }
        }
        next(AMQPQueueCounts(messages: 0, consumers: 0))
    }
}
