import AMQP
import Logging

/// Re-declares the topology when a publish hit a missing exchange (someone deleted it), at most once
/// every few seconds however many jobs notice: declaring is idempotent, and cheap, but not free.
actor TopologyRepair {
    let amqp: AMQPClient
    let topology: Topology
    let logger: Logger
    private var lastAttempt: ContinuousClock.Instant?

    init(amqp: AMQPClient, topology: Topology, logger: Logger) {
        self.amqp = amqp
        self.topology = topology
        self.logger = logger
    }

    func redeclare() async {
        let now = ContinuousClock.now
        if let lastAttempt, now - lastAttempt < .seconds(5) { return }
        lastAttempt = now
        do {
            try await topology.declare(on: amqp)
            logger.warning("an exchange was missing; the topology was declared again")
        } catch {
            logger.error("an exchange is missing and declaring the topology failed", metadata: ["error": "\(error)"])
        }
    }
}
