internal import Logging
internal import NIOCore

/// What the connection reports, turned into events of the state machine.
extension ConnectionDriver: AMQPConnectionDelegate {
    func connectionDidOpen(_ opened: AMQPConnection) {
        guard let attempt = opening, attempt.connection === opened else { return }
        opening = nil
        attempt.done(.success(opened))
    }

    func connection(_ source: AMQPConnection, didFail error: AMQPError) {
        if let attempt = opening, attempt.connection === source {
            opening = nil
            attempt.done(.failure(error))
        } else if source === connection {
            fail(error)
        }
    }

    func connection(_ source: AMQPConnection, didReceive method: InboundMethod) {
        guard source === connection else { return }
        switch method {
        case .basicAck(let tag, let multiple):
            run(state.confirmReceived(tag, multiple: multiple, positive: true))
        case .basicNack(let tag, let multiple):
            run(state.confirmReceived(tag, multiple: multiple, positive: false))
        case .basicCancel(let tag):
            let queue = state.consumer?.queue(ofTag: tag) ?? ""
            logger.error("AMQP broker cancelled the consumer; retrying", metadata: ["queue": "\(queue)"])
            run(state.consumerCancelledByBroker(tag: tag, now: now()))
        case .connectionBlocked(let reason):
            logger.warning("AMQP broker blocked publishing", metadata: ["reason": "\(reason)"])
        case .connectionUnblocked:
            logger.info("AMQP broker unblocked publishing")
        default:
            logger.debug("AMQP ignoring method", metadata: ["method": "0x\(String(method.id, radix: 16))"])
        }
    }

    func connection(_ source: AMQPConnection, didReceive content: ContentAssembler.Content) {
        guard source === connection else { return }
        var properties = content.properties
        let sequenceHeader = PublishConfirms<Void>.sequenceHeader
        let sequence = properties.headers[sequenceHeader]
        if sequence != nil {
            // Messages this library published carry this header, most of them no other; a fresh empty
            // dictionary allocates nothing, where removing the key would keep the old storage.
            if properties.headers.count == 1 {
                properties.headers = [:]
            } else {
                properties.headers[sequenceHeader] = nil
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
            guard let queue = state.delivered(info.deliveryTag, consumerTag: info.consumerTag) else {
                // Nobody consumes (the consumer was cancelled meanwhile): back to the queue.
                source.write(.basicReject(deliveryTag: info.deliveryTag, requeue: true), on: AMQPConnection.workChannel)
                return
            }
            // The one copy of the body, out of the bytes read, for as long as the job holds it.
            let message = AMQPMessage(body: Array(content.body.readableBytesView), properties: properties)
            received.append(AMQPDelivery(
                message: message, deliveryTag: info.deliveryTag, redelivered: info.redelivered,
                exchange: info.exchange, routingKey: info.routingKey, queue: queue, generation: state.generation
            ))
        }
    }

    func connectionDidFinishReading(_ source: AMQPConnection) {
        guard source === connection else { return }
        endOfTick()
    }
}
