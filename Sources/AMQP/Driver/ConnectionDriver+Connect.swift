internal import Logging

extension ConnectionDriver {
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
        logger.debug("AMQP connected", metadata: ["endpoint": "\(endpoint)", "heartbeat": "\(options.heartbeatSeconds)"])
    }
}
