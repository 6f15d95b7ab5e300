internal import Logging

extension ConnectionDriver {
    /// Handles every frame that can be read without waiting, up to ``framesPerTurn`` unless `untilDrained`.
    func pumpFrames(untilDrained: Bool = false) {
        moreInputLikely = false
        var handled = 0
        while let connection {
            if !untilDrained && handled == Self.framesPerTurn {
                moreInputLikely = true
                return
            }
            do {
                guard let frame = try connection.nextFrame() else { return }
                try handle(frame, on: connection)
            } catch {
                fail(error)
                return
            }
            handled += 1
        }
    }

    private func handle(_ frame: InboundFrame, on connection: AMQPConnection) throws(AMQPError) {
        let onWorkChannel = frame.channel == AMQPConnection.workChannel
        switch frame.payload {
        case .connectionClose(let code, let text):
            connection.acknowledgeConnectionClose()
            throw AMQPError(.brokerClosed(replyCode: code), operation: "connection to \(connection.endpoint)", message: "connection closed by the broker: \(text)")
        case .channelClose(let code, let text):
            connection.acknowledgeChannelClose(frame.channel)
            guard onWorkChannel else { return }
            throw AMQPError(.brokerClosed(replyCode: code), operation: "channel on \(connection.endpoint)", message: "channel closed by the broker: \(text)")
        case .blocked(let reason):
            logger.warning("AMQP broker blocked publishing", metadata: ["reason": "\(reason)"])
        case .unblocked:
            logger.info("AMQP broker unblocked publishing")
        case .deliver(let info) where onWorkChannel:
            try assemble(connection) { () throws(ContentAssembler.Violation) in try assembler.begin(.deliver(info)); return nil }
        case .returned(let info) where onWorkChannel:
            try assemble(connection) { () throws(ContentAssembler.Violation) in try assembler.begin(.returned(info)); return nil }
        case .header(let properties, let size) where onWorkChannel:
            try assemble(connection) { () throws(ContentAssembler.Violation) in try assembler.header(properties, bodySize: size) }
        case .body(let fragment) where onWorkChannel:
            try assemble(connection) { () throws(ContentAssembler.Violation) in try assembler.body(fragment) }
        case .ack(let tag, let multiple) where onWorkChannel:
            run(state.confirmReceived(tag, multiple: multiple, positive: true))
        case .nack(let tag, let multiple) where onWorkChannel:
            run(state.confirmReceived(tag, multiple: multiple, positive: false))
        case .cancel(let tag) where onWorkChannel:
            let queue = state.consumer?.tags.first { $0.value == tag }?.key ?? ""
            logger.error("AMQP broker cancelled the consumer; retrying", metadata: ["queue": "\(queue)"])
            run(state.consumerCancelledByBroker(tag: tag, now: clock.now))
        default:
            logger.debug("AMQP ignoring frame", metadata: ["channel": "\(frame.channel)", "frame": "\(frame.payload.summary)"])
        }
    }

    /// Feeds the content assembler; a completed content is handed on, a misordered frame kills the connection.
    private func assemble(_ connection: AMQPConnection, _ step: () throws(ContentAssembler.Violation) -> ContentAssembler.Content?) throws(AMQPError) {
        do {
            if let content = try step() { complete(content) }
        } catch {
            throw AMQPError.protocolViolation("read from \(connection.endpoint)", error.detail)
        }
    }

    private func complete(_ content: ContentAssembler.Content) {
        var message = content.message
        let sequenceHeader = PublishConfirms<Void>.sequenceHeader
        let sequence = message.properties.headers[sequenceHeader]
        if sequence != nil {
            // Messages this library published carry this header, most of them no other. Removing it
            // would copy the dictionary (`content` still shares it) and keep the empty copy's storage
            // with every delivery held in memory; a fresh empty dictionary allocates nothing.
            if message.properties.headers.count == 1 {
                message.properties.headers = [:]
            } else {
                message.properties.headers[sequenceHeader] = nil
            }
        }
        switch content.method {
        case .returned(let info):
            guard case .int(let number)? = sequence, number > 0 else {
                logger.warning("AMQP returned message without \(sequenceHeader); cannot tell which publish it was", metadata: ["reply_code": "\(info.replyCode)"])
                return
            }
            state.returned(sequence: UInt64(number), replyCode: info.replyCode, replyText: info.replyText)
        case .deliver(let info):
            guard state.delivered(info.deliveryTag) else {
                // Nobody consumes (the consumer was cancelled meanwhile): back to the queue.
                do { try connection?.reject(deliveryTag: info.deliveryTag, requeue: true) } catch { fail(error) }
                return
            }
            received.append(AMQPDelivery(
                message: message, deliveryTag: info.deliveryTag, redelivered: info.redelivered,
                exchange: info.exchange, routingKey: info.routingKey, generation: state.generation
            ))
        }
    }
}
