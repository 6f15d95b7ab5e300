internal import Logging
#if canImport(Glibc)
internal import Glibc
#endif

extension ConnectionDriver {
    /// Tries every endpoint in order, round after round with the reconnect backoff, for at most
    /// `window` (one round when it is zero): a worker started before its broker waits for it. Throws
    /// the last failure once the window is spent, at once when `close()` is called meanwhile, and at
    /// once for a refusal no retry can change (``AMQPError/isConnectionLevel``: credentials, vhost).
    func connectFirstRounds(retryingFor window: Duration) throws(AMQPError) {
        let deadline = clock.now + window
        var backoff = ReconnectBackoff(initial: options.initialReconnectDelay, maximum: options.maximumReconnectDelay)
        var random = SystemRandomNumberGenerator()
        while true {
            do {
                try connectFirstRound()
                return
            } catch {
                // A refusal a new attempt cannot change (a wrong password, a missing vhost) ends it now.
                let delay = backoff.nextDelay(using: &random)
                guard error.isConnectionLevel, clock.now + delay < deadline else { throw error }
                logger.warning("AMQP broker unreachable at start; trying again", metadata: [
                    "in_seconds": "\(Self.tenths(delay))", "gives_up_in_seconds": "\(Self.tenths(deadline - clock.now))", "error": "\(error.message)",
                ])
                guard sleepUnlessClosed(for: delay) else {
                    throw AMQPError(.notConnected, operation: "connect", message: "closed while waiting for the broker (\(error.message))")
                }
            }
        }
    }

    /// Seconds to one decimal, for log lines.
    private static func tenths(_ duration: Duration) -> Double {
        (Double(duration.components.seconds) * 10 + Double(duration.components.attoseconds / 100_000_000_000_000_000)).rounded() / 10
    }

    /// Sleeps on the wake-up pipe for `delay`; false as soon as a `close()` is queued.
    private func sleepUnlessClosed(for delay: Duration) -> Bool {
        let end = clock.now + delay
        while clock.now < end {
            if mailbox.closeRequested { return false }
            var descriptor = pollfd(fd: mailbox.wakeup.readDescriptor, events: Int16(POLLIN), revents: 0)
            let (seconds, attoseconds) = (end - clock.now).components
            _ = poll(&descriptor, 1, Int32(clamping: max(0, seconds * 1000 + attoseconds / 1_000_000_000_000_000)))
        }
        return !mailbox.closeRequested
    }

    /// Tries every endpoint once, in order; throws the last failure if none works.
    func connectFirstRound() throws(AMQPError) {
        guard !options.endpoints.isEmpty else {
            throw AMQPError(.invalidArgument, operation: "connect", message: "no broker endpoints are configured")
        }
        var lastError: AMQPError?
        for index in options.endpoints.indices {
            _ = state.tryEndpoint(index)
            do {
                try open(index)
                run(state.connected(now: clock.now))
                return
            } catch {
                logger.warning("AMQP connect failed", metadata: ["endpoint": "\(options.endpoints[index])", "error": "\(error)"])
                lastError = error
            }
        }
        throw lastError!
    }

    /// Connects to endpoint `index`, logs in, opens the work channel in confirm mode.
    func open(_ index: Int) throws(AMQPError) {
        var endpoint = options.endpoints[index]
        if let passwordFile = options.passwordFile {
            endpoint.password = try AMQPEndpoint.readPassword(fromFile: passwordFile)
        }
        let settings = AMQPConnection.Settings(heartbeatSeconds: options.heartbeatSeconds, timeout: options.connectTimeout, connectionName: options.connectionName, tls: options.tls)
        let connection = try AMQPConnection(endpoint: endpoint, settings: settings)
        try connection.selectConfirms()
        self.connection = connection
        counters.serverVersion = connection.serverVersion
        logger.debug("AMQP connected", metadata: ["endpoint": "\(endpoint)", "heartbeat": "\(options.heartbeatSeconds)"])
    }
}
