internal import Logging

/// Carrying out the state machine's actions: the rabbitmq-c calls and the continuations.
extension ConnectionDriver {
    func perform(_ action: ConnectionAction) {
        switch action {
        case .open(let index):
            do {
                try open(index)
                logger.info("AMQP reconnected", metadata: ["endpoint": "\(options.endpoints[index])", "generation": "\(state.generation + 1)"])
                run(state.connected(now: clock.now))
            } catch {
                logger.warning("AMQP reconnect failed", metadata: ["endpoint": "\(options.endpoints[index])", "error": "\(error)"])
                run(state.openFailed(error, now: clock.now))
            }
        case .closeConnection:
            connection?.close()
            connection = nil
            assembler.reset()
        case .startConsumer(let queues, let prefetch):
            startConsumer(queues: queues, prefetch: prefetch)
        case .cancelConsumer(let tags):
            do {
                for tag in tags { try connection?.cancel(consumerTag: tag) }
                // What the broker sent before its cancel-ok is queued in rabbitmq-c: hand it out first.
                pumpFrames(untilDrained: true)
                handOver()
            } catch {
                fail(error)
            }
            run(state.consumerCancelled())
        case .finishDeliveries:
            handOver()
            sink?.finish()
            sink = nil
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
            publishes.removeValue(forKey: id)?.continuation?.resume(with: outcome.mapError { $0 })
        case .resumeBatch(let id, let outcomes, let acked):
            batches.removeValue(forKey: id)?.resume(returning: AMQPBatchOutcome(outcomes: outcomes, acked: acked))
        case .sendAck(let tag, let multiple):
            do { try connection?.ack(deliveryTag: tag, multiple: multiple) } catch { fail(error) }
        case .sendReject(let tag, let requeue):
            do { try connection?.reject(deliveryTag: tag, requeue: requeue) } catch { fail(error) }
        case .finishClose:
            finishClose()
        }
    }

    /// Writes publish `id` with its sequence number in a header (a `basic.return` carries no sequence
    /// number; the returned message's headers give it back).
    private func write(_ id: PublishID, sequence: UInt64) {
        guard let connection, let pending = publishes[id], let request = pending.request else { return }
        // The body is not needed any more (it would be held until the confirm); a batch member keeps
        // nothing at all: its batch is resumed as a whole.
        if pending.continuation == nil { publishes[id] = nil } else { publishes[id]?.request = nil }
        do {
            try connection.publish(
                exchange: request.exchange, routingKey: request.routingKey, message: request.message, mandatory: request.mandatory,
                extraHeaders: [PublishConfirms<Void>.sequenceHeader: .int(Int64(sequence))]
            )
        } catch {
            // Part of the message may have reached the broker: the connection is done, the outcome unknown.
            fail(error)
        }
    }

    /// Checks the queues exist (on the topology channel, so a 404 cannot close the work channel), sets
    /// the prefetch and starts consuming each. All or none: if one fails, those started in this call
    /// are cancelled, so a retry never leaves a queue with two consumers.
    private func startConsumer(queues: [String], prefetch: UInt16) {
        guard let connection else { return }
        var started: [String: String] = [:]
        do {
            for queue in queues { try connection.declare(AMQPQueueDeclaration(name: queue), passive: true) }
            try connection.setPrefetch(prefetch)
            for queue in queues { started[queue] = try connection.consume(queue: queue) }
            logger.debug("AMQP consuming", metadata: ["queues": "\(queues.joined(separator: ", "))", "prefetch": "\(prefetch) each"])
            run(state.consumerStarted(tags: started))
        } catch {
            if connection.canWork {
                for tag in started.values { try? connection.cancel(consumerTag: tag) }
                logger.error("AMQP consumer could not start", metadata: ["queues": "\(queues.joined(separator: ", "))", "error": "\(error)"])
            }
            run(state.consumerFailed(error, connectionUsable: connection.canWork, now: clock.now))
        }
    }

    /// The deliveries read this turn, to the consumer in one batch; back to the queue if nobody reads.
    func handOver() {
        guard !received.isEmpty else { return }
        let deliveries = received
        received = []
        guard let sink, sink.yield(deliveries) else {
            logger.warning("AMQP deliveries without a listener; requeueing them and cancelling the consumer")
            for delivery in deliveries {
                run(state.settleRequested(delivery.deliveryTag, generation: delivery.generation, ack: false, requeue: true))
            }
            run(state.cancelRequested())
            return
        }
    }

    private func finishClose() {
        connection = nil
        handOver()
        sink?.finish()
        sink = nil
        let (_, leftovers) = mailbox.close()
        for command in leftovers {
            command.fail(AMQPError(.notConnected, operation: command.operation, message: "the client is closed"))
        }
        for waiter in closeWaiters { waiter.resume() }
        closeWaiters = []
        finished = true
        logger.debug("AMQP client closed")
    }
}
