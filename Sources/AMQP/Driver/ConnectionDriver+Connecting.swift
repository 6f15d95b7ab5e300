internal import Logging
internal import NIOCore
internal import TLS

/// Opening connections: the first rounds `connect()` waits for, and each (re)connect attempt.
extension ConnectionDriver {
    /// Tries every endpoint in order, round after round with the reconnect backoff, for at most
    /// `window` (one round when it is zero): a worker started before its broker waits for it. Fails
    /// with the last failure once the window is spent, at once when `close()` is called meanwhile, and
    /// at once for a refusal no retry can change (``AMQPError/isConnectionLevel``: credentials, vhost).
    /// Commands that arrive meanwhile wait, and run (or fail) when it ends.
    func connect(retryingFor window: Duration, _ continuation: CheckedContinuation<Void, any Error>) {
        guard !options.endpoints.isEmpty else {
            continuation.resume(throwing: AMQPError(.invalidArgument, operation: "connect", message: "no broker endpoints are configured"))
            return
        }
        phase = .starting(queued: [])
        startContinuation = continuation
        startWindow = window
        startDeadline = now() + window
        startBackoff = ReconnectBackoff(initial: options.initialReconnectDelay, maximum: options.maximumReconnectDelay)
        startRound(at: 0, lastError: nil)
    }

    /// Tries endpoint `index` of the current round, or after the last one plans the next round.
    private func startRound(at index: Int, lastError: AMQPError?) {
        guard case .starting = phase else { return }
        guard index < options.endpoints.count else {
            let error = lastError!
            var random = SystemRandomNumberGenerator()
            let remaining = startDeadline - now()
            // A refusal a new attempt cannot change (a wrong password, a missing vhost) ends it now;
            // otherwise the rounds go on until the window is spent, the last one at its end.
            guard error.isConnectionLevel, remaining > .zero else { return finishStart(.failure(Self.gaveUp(error, after: startWindow))) }
            let delay = min(startBackoff.nextDelay(using: &random), remaining)
            logger.warning("AMQP broker unreachable at start; trying again", metadata: [
                "in_seconds": "\(Self.tenths(delay))", "gives_up_in_seconds": "\(Self.tenths(startDeadline - now()))", "error": "\(error.message)",
            ])
            startRetry = (loop.scheduleTask(in: .nanoseconds(delay.nanoseconds)) { [self] in startRound(at: 0, lastError: nil) }, error)
            return
        }
        _ = state.tryEndpoint(index)
        open(index) { [self] result in
            switch result {
            case .success(let connection):
                finishStart(.success(connection))
            case .failure(let error):
                logger.warning("AMQP connect failed", metadata: ["endpoint": "\(options.endpoints[index])", "error": "\(error)"])
                if case .closed = phase { return finishStart(.failure(error)) }
                startRound(at: index + 1, lastError: error)
            }
        }
    }

    /// The first rounds ended: the client runs (and the commands that waited run), or it is idle again
    /// (closed, if a `close()` came meanwhile) and they fail.
    private func finishStart(_ result: Result<AMQPConnection, AMQPError>) {
        guard let continuation = startContinuation else { return }
        startContinuation = nil
        startRetry = nil
        let queued: [ClientCommand]
        if case .starting(let waiting) = phase { queued = waiting } else { queued = [] }
        switch result {
        case .success(let connection):
            phase = .running
            adopt(connection)
            continuation.resume()
            for command in queued { execute(command) }
        case .failure(let error):
            if case .closed = phase {} else { phase = .idle }
            continuation.resume(throwing: error)
            for command in queued { command.fail(AMQPError(.notConnected, operation: command.operation, message: "connect() failed: \(error.message)")) }
            let waiters = closeWaiters
            closeWaiters = []
            for waiter in waiters { waiter.resume() }
        }
    }

    /// `close()` while the first rounds run: they end at once, and the client is closed for good.
    func closeWhileStarting(_ command: ClientCommand) {
        if case .close(let continuation?) = command { closeWaiters.append(continuation) }
        phase = .closed
        if let (retry, error) = startRetry {
            retry.cancel()
            finishStart(.failure(AMQPError(.notConnected, operation: "connect", message: "closed while waiting for the broker (\(error.message))")))
        } else if let attempt = opening {
            attempt.connection.fail(AMQPError(.notConnected, operation: "connect", message: "closed while connecting"))
        }
    }

    /// Opens a connection to endpoint `index`: socket, TLS, login, channels; `done` hears how it went.
    func open(_ index: Int, _ done: @escaping (Result<AMQPConnection, AMQPError>) -> Void) {
        var endpoint = options.endpoints[index]
        let tls: TLSContext?
        do {
            if let passwordFile = options.passwordFile {
                endpoint.password = try AMQPEndpoint.readPassword(fromFile: passwordFile)
            }
            tls = endpoint.usesTLS ? try tlsContext() : nil
        } catch {
            return done(.failure(error))
        }
        let settings = AMQPConnection.Settings(
            heartbeatSeconds: options.heartbeatSeconds, timeout: options.connectTimeout, connectionName: options.connectionName,
            external: options.tls.usesExternalAuthentication && endpoint.usesTLS
        )
        let connection = AMQPConnection(endpoint: endpoint, settings: settings, logger: logger)
        connection.delegate = self
        opening = (connection, done)
        let target = endpoint
        connector.connect(to: endpoint, tls: tls, timeout: options.connectTimeout, handler: connection, on: loop).whenFailure { [self] error in
            let endpoint = target
            connection.fail(TransportErrors.amqpError(error, endpoint: endpoint))
            // A channel that never became active has no handler events: report it here.
            if let attempt = opening, attempt.connection === connection {
                opening = nil
                attempt.done(.failure(TransportErrors.amqpError(error, endpoint: endpoint)))
            }
        }
    }

    /// The TLS context of `amqps` endpoints, built once (it loads the CA and client certificate files).
    private func tlsContext() throws(AMQPError) -> TLSContext {
        if let tlsContextCache { return tlsContextCache }
        let context = try options.tls.makeContext()
        tlsContextCache = context
        return context
    }

    /// The last failure of the first rounds, saying how long they tried when they had a window.
    static func gaveUp(_ error: AMQPError, after window: Duration) -> AMQPError {
        guard window > .zero, error.isConnectionLevel else { return error }
        return AMQPError(error.code, operation: error.operation, message: "\(error.message) (still so after trying for \(tenths(window)) s: amqp.startup_timeout)", brokerReplyCode: error.brokerReplyCode)
    }

    /// Seconds to one decimal, for log lines.
    static func tenths(_ duration: Duration) -> Double {
        (Double(duration.components.seconds) * 10 + Double(duration.components.attoseconds / 100_000_000_000_000_000)).rounded() / 10
    }
}
