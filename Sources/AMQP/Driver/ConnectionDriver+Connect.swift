internal import Logging
internal import Synchronization

extension ConnectionDriver {
    /// Tries every endpoint once, in order; throws the last failure if none works.
    func connectFirstRound() throws(AMQPError) {
        guard !options.endpoints.isEmpty else {
            throw AMQPError(.invalidArgument, operation: "connect", message: "no broker endpoints are configured")
        }
        var lastError: AMQPError?
        for index in options.endpoints.indices {
            do {
                try open(index)
                return
            } catch {
                logger.warning("AMQP connect failed", metadata: ["endpoint": "\(options.endpoints[index])", "error": "\(error)"])
                lastError = error
            }
        }
        throw lastError!
    }

    /// One reconnect attempt on the endpoint whose turn it is; on failure the next one waits longer.
    func reconnect() {
        nextReconnect = nil
        do {
            try open(endpointIndex)
            reconnectBackoff.reset()
            logger.info("AMQP reconnected", metadata: ["endpoint": "\(options.endpoints[endpointIndex])", "generation": "\(counters.generation.load(ordering: .relaxed))"])
            restoreConsumer()
        } catch {
            logger.warning("AMQP reconnect failed", metadata: ["endpoint": "\(options.endpoints[endpointIndex])", "error": "\(error)"])
            scheduleReconnect()
        }
    }

    /// Connects to endpoint `index`, selects confirms, and makes it the current generation.
    private func open(_ index: Int) throws(AMQPError) {
        var endpoint = options.endpoints[index]
        if let passwordFile = options.passwordFile {
            endpoint.password = try AMQPEndpoint.readPassword(fromFile: passwordFile)
        }
        let settings = AMQPConnection.Settings(heartbeatSeconds: options.heartbeatSeconds, timeout: options.connectTimeout, connectionName: options.connectionName, tls: options.tls)
        let connection = try AMQPConnection(endpoint: endpoint, settings: settings)
        try connection.selectConfirms()
        self.connection = connection
        endpointIndex = index
        counters.generation.add(1, ordering: .sequentiallyConsistent)
        counters.connected.store(true, ordering: .relaxed)
        logger.debug("AMQP connected", metadata: ["endpoint": "\(endpoint)", "heartbeat": "\(options.heartbeatSeconds)"])
    }

    /// The connection or its work channel failed: settle what depended on it and plan the reconnect.
    func connectionFailed(_ error: AMQPError) {
        guard let connection else { return }
        logger.warning("AMQP connection lost", metadata: ["endpoint": "\(connection.endpoint)", "error": "\(error)"])
        // A channel closed by the broker leaves the socket fine: say goodbye instead of just dropping it.
        connection.close()
        self.connection = nil
        counters.connected.store(false, ordering: .relaxed)
        counters.consuming.store(false, ordering: .relaxed)
        let unknown = AMQPError.outcomeUnknown(after: error)
        let pending = confirms.reset()
        counters.unconfirmed.store(0, ordering: .relaxed)
        for waiter in pending { waiter.resume(throwing: unknown) }
        assembler.reset()
        // The broker requeues the consumer's unacked deliveries; their tags die with the channel.
        consumer?.consumerTag = nil
        nextConsumerAttempt = nil
        if closing == nil {
            // Rotate through the cluster: the node that just failed is tried last.
            endpointIndex = (endpointIndex + 1) % options.endpoints.count
            scheduleReconnect()
        }
    }

    private func scheduleReconnect() {
        let delay = reconnectBackoff.nextDelay(using: &random)
        nextReconnect = clock.now + delay
        if reconnectBackoff.failedAttempts > 1 {
            endpointIndex = (endpointIndex + 1) % options.endpoints.count
        }
    }

    /// Starts the registered consumer on the new channel, if there is one.
    func restoreConsumer() {
        guard consumer != nil else { return }
        do {
            try startConsumer()
            consumerBackoff.reset()
        } catch {
            consumerStartFailed(error)
        }
    }

    /// The timer after a failed start or a broker-side cancel: try the consumer again.
    func retryConsumer() {
        nextConsumerAttempt = nil
        guard connection?.canWork == true, closing == nil, let consumer, consumer.consumerTag == nil else { return }
        restoreConsumer()
    }

    /// Checks the queue exists (on the topology channel, so a 404 cannot close the work channel), sets the
    /// prefetch and starts consuming.
    func startConsumer() throws(AMQPError) {
        guard let connection, let queue = consumer?.queue, let prefetch = consumer?.prefetch else { return }
        try connection.declare(AMQPQueueDeclaration(name: queue), passive: true)
        try connection.setPrefetch(prefetch)
        consumer?.consumerTag = try connection.consume(queue: queue)
        counters.consuming.store(true, ordering: .relaxed)
        logger.debug("AMQP consuming", metadata: ["queue": "\(queue)", "prefetch": "\(prefetch)"])
    }

    /// A consumer that could not start on a healthy connection (its queue is missing) is retried with backoff.
    private func consumerStartFailed(_ error: AMQPError) {
        guard connection?.canWork == true else {
            connectionFailed(error)
            return
        }
        let delay = consumerBackoff.nextDelay(using: &random)
        logger.error("AMQP consumer could not start; retrying", metadata: ["queue": "\(consumer?.queue ?? "")", "error": "\(error)", "retry_in": "\(delay)"])
        nextConsumerAttempt = clock.now + delay
    }
}
