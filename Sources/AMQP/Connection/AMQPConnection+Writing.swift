internal import NIOCore

extension AMQPConnection {
    /// Encodes a method into the outbound buffer; it goes out with the next flush. A method
    /// rabbitmq-c refuses (only caller-supplied names can make it) fails the connection: the
    /// callers that pass such names check them first (``call(_:on:operation:reply:)``).
    func write(_ method: OutboundMethod, on channel: UInt16) {
        guard !isFinished else { return }
        do {
            try encoder.method(method, channel: channel, into: &outbound)
            scheduleFlush()
        } catch {
            fail(AMQPError(.invalidArgument, operation: "write to \(endpoint)", message: error.message))
        }
    }

    /// `basic.publish` on the work channel with its content, or nothing when rabbitmq-c cannot encode
    /// it (the refusal is thrown and the connection is untouched).
    func publish(exchange: String, routingKey: String, mandatory: Bool, message: AMQPMessage, sequence: UInt64) throws(FrameEncoder.Refusal) {
        guard !isFinished else { return }
        let result = message.body.withUnsafeBytes { body in
            Result { () throws(FrameEncoder.Refusal) in
                try encoder.publish(
                    channel: Self.workChannel, exchange: exchange, routingKey: routingKey, mandatory: mandatory, properties: message.properties,
                    extraHeader: (PublishConfirms<Void>.sequenceHeader, .int(Int64(sequence))), body: body, into: &outbound
                )
            }
        }
        try result.get()
        scheduleFlush()
    }

    /// Sends `method` on `channel` and hands its reply to `reply`: a broker refusal (the channel closed)
    /// and a lost connection as errors; no reply within the timeout fails the connection, whose state
    /// is then unknown. One call per channel is on the wire at a time, the others wait their turn, so
    /// a refusal closes the channel under its own call only; the topology channel is opened again
    /// before the next call.
    func call(_ method: OutboundMethod, on channel: UInt16, operation: String, reply: @escaping (Result<InboundMethod, AMQPError>) -> Void) {
        guard isOpen, let expects = method.reply else {
            reply(.failure(AMQPError(.notConnected, operation: operation, message: "the connection is down; reconnecting")))
            return
        }
        // After connection.close the broker ignores everything but close-ok: a call written now would
        // never be answered.
        guard closing == nil else {
            reply(.failure(AMQPError(.notConnected, operation: operation, message: "the client is closing")))
            return
        }
        calls[channel, default: CircularBuffer()].append(PendingCall(method: method, expects: expects, operation: operation, reply: reply))
        sendNextCall(on: channel)
    }

    /// Writes the first call waiting on `channel` unless one is on the wire already.
    func sendNextCall(on channel: UInt16) {
        guard !isFinished, let loop = context?.eventLoop, let next = calls[channel]?.first, !next.isSent else { return }
        if channel == Self.topologyChannel, !isTopologyChannelOpen, next.expects != MethodID.channelOpenOk {
            let reopen = PendingCall(method: .channelOpen, expects: MethodID.channelOpenOk, operation: "open channel \(channel) again", reply: { [weak self] result in
                if case .success = result { self?.isTopologyChannelOpen = true }
            })
            calls[channel]!.prepend(reopen)
            return sendNextCall(on: channel)
        }
        let timeout = settings.timeout
        let operation = next.operation
        calls[channel]![calls[channel]!.startIndex].timeout = loop.scheduleTask(in: .nanoseconds(Int64(clamping: timeout.nanoseconds))) { [weak self] () -> Void in
            self?.fail(.library(AMQPError.timeoutStatus, operation, "no reply from the broker within \(timeout)"))
        }
        write(next.method, on: channel)
    }

    /// The reply to the call on the wire on `channel`: it is answered, and the next one goes out.
    func completeCall(on channel: UInt16, with result: Result<InboundMethod, AMQPError>) {
        guard let call = calls[channel]?.popFirst() else { return }
        call.timeout?.cancel()
        call.reply(result)
        sendNextCall(on: channel)
    }

    /// Fails every call of every channel (the connection is gone).
    func failCalls(_ error: AMQPError) {
        for channel in calls.keys { failCalls(on: channel, error) }
    }

    /// Fails every call of `channel` (the connection is gone).
    func failCalls(on channel: UInt16, _ error: AMQPError) {
        guard let waiting = calls.removeValue(forKey: channel) else { return }
        for call in waiting {
            call.timeout?.cancel()
            call.reply(.failure(AMQPError(error.code, operation: call.operation, message: error.message, brokerReplyCode: error.brokerReplyCode)))
        }
    }

    /// Writes what was encoded during this tick, once, at its end.
    func scheduleFlush() {
        guard !flushScheduled, let loop = context?.eventLoop else { return }
        flushScheduled = true
        loop.execute { [weak self] in self?.flush() }
    }

    /// Writes the outbound buffer now, in one write.
    func flush() {
        flushScheduled = false
        guard let context, outbound.readableBytes > 0 else { return }
        context.writeAndFlush(wrapOutboundOut(outbound), promise: nil)
        // The buffer is NIO's until written; a fresh one for what comes next unless it was written at once.
        outbound.clear()
        wroteSinceTick = true
    }

    /// Heartbeats every `seconds / 2`: one is sent when nothing else was, and a broker silent for
    /// two whole intervals (four ticks) is gone.
    func startHeartbeats(seconds: Int) {
        guard seconds > 0, let loop = context?.eventLoop else { return }
        let tick = TimeAmount.milliseconds(Int64(seconds) * 500)
        heartbeat = loop.scheduleRepeatedTask(initialDelay: tick, delay: tick) { [weak self] _ in
            self?.heartbeatTick(seconds: seconds)
        }
    }

    private func heartbeatTick(seconds: Int) {
        guard !isFinished else { return }
        silentTicks = readSinceTick ? 0 : silentTicks + 1
        readSinceTick = false
        if silentTicks >= 4 {
            fail(.library(AMQPError.heartbeatTimeoutStatus, "read from \(endpoint)", "nothing from the broker for \(2 * seconds) s"))
            return
        }
        if !wroteSinceTick {
            encoder.heartbeat(into: &outbound)
            flush()
        }
        wroteSinceTick = false
    }

    /// Closes politely: `connection.close`, then the socket once the broker's `close-ok` arrives (or
    /// after the timeout); `done` runs when the socket is closed. Writes already queued go first.
    func close(_ done: @escaping () -> Void) {
        guard !isFinished, let context else {
            done()
            return
        }
        write(.connectionClose(replyCode: 200, replyText: "Goodbye"), on: 0)
        flush()
        let timeout = settings.timeout
        let scheduled = context.eventLoop.scheduleTask(in: .nanoseconds(Int64(clamping: timeout.nanoseconds))) { [weak self] () -> Void in
            self?.context?.close(promise: nil)
        }
        closing = (done, scheduled)
    }

    /// The connection is finished: everything waiting fails with `error`, the delegate hears it once,
    /// and the socket closes.
    func fail(_ error: AMQPError) {
        guard !isFinished else { return }
        let delegate = delegate
        finish()
        failCalls(error)
        delegate?.connection(self, didFail: error)
        context?.close(promise: nil)
    }

    /// Stops timers and forgets the delegate; nothing is read or written after this.
    func finish() {
        isFinished = true
        delegate = nil
        openTimeout?.cancel()
        openTimeout = nil
        heartbeat?.cancel()
        heartbeat = nil
    }
}
