internal import Logging
internal import NIOCore
internal import NumberedWindows

/// Carrying out the state machine's actions: the connection's writes and calls, and the continuations.
extension ConnectionDriver {
    func perform(_ action: ConnectionAction) {
        switch action {
        case .open(let index):
            open(index) { [self] result in
                switch result {
                case .success(let connection):
                    logger.info("AMQP reconnected", metadata: ["endpoint": "\(connection.endpoint)", "generation": "\(state.generation + 1)"])
                    adopt(connection)
                case .failure(let error):
                    logger.warning("AMQP reconnect failed", metadata: ["endpoint": "\(options.endpoints[index])", "error": "\(error)"])
                    run(state.openFailed(error, now: now()))
                }
            }
        case .closeConnection:
            guard let closed = connection else { return }
            connection = nil
            closed.delegate = nil
            closingConnections += 1
            closed.close { [self] in
                closingConnections -= 1
                if closingConnections == 0, case .closed = phase { resumeCloseWaiters() }
            }
        case .startConsumer(let queues):
            startConsumer(queues: queues)
        case .cancelConsumer(let tags):
            cancelConsumer(tags: tags)
        case .finishDeliveries:
            handOver()
            sink?.finish()
            sink = nil
            resumeCancelWaiters()
        case .answerConsume(let error):
            let waiter = consumeWaiter
            consumeWaiter = nil
            if let error {
                sink?.finish()
                sink = nil
                waiter?.resume(throwing: error)
            } else {
                waiter?.resume()
            }
        case .send(let id, let sequence):
            write(id, sequence: sequence)
        case .resumePublish(let id, let outcome):
            publishes.removeValue(at: id)?.continuation.resume(with: outcome.mapError { $0 })
        case .resumeBatch(let id, let outcomes, let acked):
            batches.removeValue(at: id)?(AMQPBatchOutcome(outcomes, acked: acked))
        case .sendAck(let tag, let multiple):
            connection?.write(.basicAck(deliveryTag: tag, multiple: multiple), on: AMQPConnection.workChannel)
        case .sendReject(let tag, let requeue):
            connection?.write(.basicReject(deliveryTag: tag, requeue: requeue), on: AMQPConnection.workChannel)
        case .finishClose:
            finishClose()
        }
    }

    /// A connection that just opened becomes the current one: a new generation for the state machine.
    func adopt(_ opened: AMQPConnection) {
        connection = opened
        opened.delegate = self
        counters.serverVersion = opened.serverVersion
        run(state.connected(now: now()))
    }

    /// Writes publish `id` with its sequence number in a header (a `basic.return` carries no sequence
    /// number; the returned message's headers give it back).
    private func write(_ id: PublishID, sequence: UInt64) {
        guard let connection else { return }
        var taken: PublishRequest?
        if let member = memberBeingWritten, member.id == id {
            taken = member.request
        } else {
            // The body is not needed any more (it would be held until the confirm): taken out, not copied.
            publishes.update(at: id) { swap(&taken, &$0.request) }
        }
        guard let request = taken else { return }
        do {
            try connection.publish(exchange: request.exchange, routingKey: request.routingKey, mandatory: request.mandatory, message: request.message, sequence: sequence)
        } catch {
            // Checked before it was numbered, so this is unexpected; nothing was written, but the
            // broker's numbering of publishes would no longer match ours: the connection is done.
            fail(AMQPError(.invalidArgument, operation: "publish to exchange \"\(request.exchange.prefix(64))\"", message: error.message))
        }
    }

    /// Checks the queues exist (on the topology channel, so a 404 cannot close the work channel), then
    /// starts consuming each after setting its prefetch (`basic.qos` applies to the consumers started
    /// after it on the channel, so each gets its own limit). All or none: if one fails, those started in this call
    /// are cancelled, so a retry never leaves a queue with two consumers. Replies from a connection
    /// that has been replaced meanwhile are ignored: the new one starts the consumer again.
    private func startConsumer(queues: [AMQPConsumedQueue]) {
        guard let connection else { return }
        let generation = state.generation
        var steps: [(OutboundMethod, UInt16, String)] = queues.map {
            (.queueDeclare(AMQPQueueDeclaration(name: $0.name), passive: true), AMQPConnection.topologyChannel, "find queue \($0.name)")
        }
        for queue in queues {
            steps.append((.basicQos(prefetchCount: queue.prefetch), AMQPConnection.workChannel, "basic.qos \(queue.prefetch)"))
            steps.append((.basicConsume(queue: queue.name), AMQPConnection.workChannel, "consume \(queue.name)"))
        }
        let names = queues.map { "\($0.name) (prefetch \($0.prefetch))" }.joined(separator: ", ")
        var started: [String: String] = [:]
        var remaining = steps[...]
        func next() {
            guard state.generation == generation, self.connection === connection else { return }
            guard let (method, channel, operation) = remaining.popFirst() else {
                logger.debug("AMQP consuming", metadata: ["queues": "\(names)"])
                run(state.consumerStarted(tags: started))
                return
            }
            connection.call(method, on: channel, operation: operation) { [self] result in
                switch result {
                case .success(.basicConsumeOk(let tag)):
                    if case .basicConsume(let queue) = method {
                        started[queue] = tag
                        state.consumerTagStarted(queue: queue, tag: tag)
                    }
                    next()
                case .success:
                    next()
                case .failure(let error):
                    guard state.generation == generation, self.connection === connection else { return }
                    state.consumerTagsCancelled(queues: Array(started.keys))
                    if connection.isOpen {
                        for tag in started.values { connection.call(.basicCancel(consumerTag: tag), on: AMQPConnection.workChannel, operation: "cancel consumer \(tag)") { _ in } }
                        logger.error("AMQP consumer could not start", metadata: ["queues": "\(names)", "error": "\(error)"])
                    }
                    run(state.consumerFailed(error, connectionUsable: connection.isOpen, now: now()))
                }
            }
        }
        next()
    }

    /// `basic.cancel` for each consumer; once the broker confirmed them all, what it delivered before
    /// is in hand (replies come in order), so it is handed over and the consumer ends.
    private func cancelConsumer(tags: [String]) {
        guard let connection else {
            run(state.consumerCancelled())
            return
        }
        var waiting = tags.count
        for tag in tags {
            connection.call(.basicCancel(consumerTag: tag), on: AMQPConnection.workChannel, operation: "cancel consumer \(tag)") { [self] _ in
                waiting -= 1
                guard waiting == 0 else { return }
                handOver()
                run(state.consumerCancelled())
            }
        }
    }

    /// The deliveries read since the last hand-over, to the consumer in one batch; back to the queue
    /// if nobody reads.
    func handOver() {
        guard !received.isEmpty else { return }
        // Out of `received` before the consumer runs: what it does inside the call can reach here again
        // (a publish that ends a close finishes the deliveries), and must not find this batch still there.
        var batch: [AMQPDelivery] = []
        swap(&batch, &received)
        guard let sink, sink.yield(batch) else {
            logger.warning("AMQP deliveries without a listener; requeueing them and cancelling the consumer")
            for delivery in batch {
                run(state.settleRequested(delivery.deliveryTag, generation: delivery.generation, ack: false, requeue: true))
            }
            run(state.cancelRequested())
            return
        }
        // A consumer on the loop takes the deliveries out of the batch during the call, so the storage
        // is ours again and serves the next batch: a batch's array is often over a kilobyte, and
        // allocating one made glibc consolidate its fast bins. A batch a consumer keeps stays its own.
        if received.isEmpty, !sink.keepsBatches {
            batch.removeAll(keepingCapacity: true)
            swap(&batch, &received)
        }
    }

    private func finishClose() {
        timer?.task.cancel()
        timer = nil
        connection = nil
        handOver()
        sink?.finish()
        sink = nil
        resumeCancelWaiters()
        phase = .closed
        // `close()` returns once the broker has seen the connection close (its unacked deliveries are
        // requeued by then), not merely once the close was written.
        if closingConnections == 0 { resumeCloseWaiters() }
    }

    func resumeCancelWaiters() {
        let waiters = cancelWaiters
        cancelWaiters = []
        for waiter in waiters { waiter.resume() }
    }

    private func resumeCloseWaiters() {
        for waiter in closeWaiters { waiter.resume() }
        closeWaiters = []
        logger.debug("AMQP client closed")
    }
}
