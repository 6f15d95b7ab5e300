import APNsCore
import Logging
import Metrics
import NIOConcurrencyHelpers
import NIOCore
import Synchronization
import TLS

/// The connections of one (credential, endpoint): requests go to the connection with the most free
/// streams; when none is free, callers wait in a bounded line (``APNsClientConfiguration/maximumWaitingRequests``).
///
/// The decisions are ``PoolStateMachine``'s; this class holds it under a lock with the connections and
/// the sends waiting for a stream, and carries out its actions outside the lock.
final class APNsConnectionPool: Sendable {
    let credential: APNsCredential
    let endpoint: APNsEndpoint
    let configuration: APNsClientConfiguration
    let group: any EventLoopGroup
    let tlsContext: TLSContext
    let statistics: APNsClientStatistics
    let logger: Logger
    let state: NIOLockedValueBox<Locked>
    let metrics: ClientMetrics.Pool
    let waiterIDs = Atomic<UInt64>(0)

    /// What the lock guards: the state machine, and the objects its ids stand for.
    struct Locked {
        var machine: PoolStateMachine<SystemRandomNumberGenerator>
        var connections: [Int: APNsConnection] = [:]
        /// Sends waiting for a stream: one leaves this dictionary under the lock before it goes on, so
        /// it goes on exactly once.
        var waiting: [UInt64: PoolSend] = [:]
    }

    init(
        credential: APNsCredential,
        endpoint: APNsEndpoint,
        configuration: APNsClientConfiguration,
        group: any EventLoopGroup,
        statistics: APNsClientStatistics,
        logger: Logger
    ) throws {
        var tls = TLSClientConfiguration(trustsSystemStore: configuration.trustsSystemStore, additionalTrustedCAFile: configuration.additionalTrustedCAFile)
        if case .certificate(let identity) = credential.authentication { tls.identity = identity }
        tlsContext = try TLSContext(client: tls)
        self.credential = credential
        self.endpoint = endpoint
        self.configuration = configuration
        self.group = group
        self.statistics = statistics
        var logger = logger
        logger[metadataKey: "apns.credential"] = "\(credential.name)"
        logger[metadataKey: "apns.endpoint"] = "\(endpoint)"
        self.logger = logger
        metrics = ClientMetrics.Pool(credential: credential.name)
        let machine = PoolStateMachine(
            targetConnections: configuration.connectionShare.of(credential.connections ?? configuration.connectionsPerPool),
            maximumWaiters: configuration.maximumWaitingRequests,
            requestTimeout: TimeAmount(configuration.requestTimeout),
            reconnect: ReconnectDelay(floor: configuration.minimumConnectInterval, initial: configuration.initialReconnectDelay, maximum: configuration.maximumReconnectDelay),
            random: SystemRandomNumberGenerator()
        )
        state = NIOLockedValueBox(Locked(machine: machine))
    }

    /// Sends `request`, re-sending it transparently while APNs reports it unprocessed, and calls
    /// `completion` once with APNs' answer or why there is none (see ``PoolSend`` for where it runs).
    func send(_ request: consuming OutgoingRequest, urgent: Bool = false, completion: @escaping @Sendable (Result<APNsResponse, APNsSendError>) -> Void) {
        acquire(for: PoolSend(pool: self, request: request, urgent: urgent, waiterID: nextWaiterID(), completion: completion))
    }

    /// The same for a task, which waits for the answer. Cancelled while it waits for a stream, it
    /// leaves the line and fails unprocessed (``APNsSendError/Code/shutdown``); once its request is
    /// on a stream it waits for the answer, as the request's outcome would otherwise be unknown.
    func send(_ request: OutgoingRequest, urgent: Bool = false) async throws -> APNsResponse {
        let id = nextWaiterID()
        return try await withTaskCancellationHandler {
            try await withUnsafeThrowingContinuation { continuation in
                acquire(for: PoolSend(pool: self, request: request, urgent: urgent, waiterID: id) { continuation.resume(with: $0) })
            }
        } onCancel: {
            withdrawWaiting(id, because: APNsSendError(.shutdown, .notProcessed, "cancelled while waiting for a stream"))
        }
    }

    private func nextWaiterID() -> UInt64 {
        waiterIDs.wrappingAdd(1, ordering: .relaxed).newValue
    }

    /// Stops taking requests, fails waiting callers and lets every connection close once idle.
    func shutdown() {
        perform(state.withLockedValue { locked in translate(locked.machine.shutdown(), in: &locked) })
    }

    /// Streams in use and connections, for tests and metrics.
    var snapshot: (connections: Int, ready: Int, inFlight: Int, waiting: Int, limits: [Int]) {
        state.withLockedValue { locked in
            let entries = locked.machine.entries.map(\.entry)
            let ready = entries.filter { $0.phase == .ready }
            return (entries.count, ready.count, locked.machine.streamsInUse, locked.machine.waitingCount, ready.map(\.limit).sorted())
        }
    }
}
