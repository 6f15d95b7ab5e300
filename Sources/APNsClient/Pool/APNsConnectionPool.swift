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
/// the waiting callers' continuations, and carries out its actions outside the lock.
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
        /// Waiting callers' continuations, unsafe to spare an allocation each: one leaves this dictionary
        /// under the lock before it is resumed, so it is resumed exactly once.
        var waiting: [UInt64: UnsafeContinuation<APNsConnection, any Error>] = [:]
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
            targetConnections: credential.connections ?? configuration.connectionsPerPool,
            maximumWaiters: configuration.maximumWaitingRequests,
            requestTimeout: TimeAmount(configuration.requestTimeout),
            reconnect: ReconnectDelay(floor: configuration.minimumConnectInterval, initial: configuration.initialReconnectDelay, maximum: configuration.maximumReconnectDelay),
            random: SystemRandomNumberGenerator()
        )
        state = NIOLockedValueBox(Locked(machine: machine))
    }

    /// Sends `request`, re-sending it transparently while APNs reports it unprocessed.
    func send(_ request: OutgoingRequest, urgent: Bool = false) async throws -> APNsResponse {
        var resends = 0
        let started = ContinuousClock.now
        defer { metrics.requestDuration.record(duration: ContinuousClock.now - started) }
        while true {
            let connection = try await acquire(urgent: urgent)
            let outcome = await connection.execute(request)
            release(connection)
            switch outcome {
            case .response(let response):
                return response
            case .failed(let error):
                throw error
            case .notProcessed(let why):
                guard resends < configuration.maximumTransparentResends else {
                    throw APNsSendError(.refused, .notProcessed, "refused unprocessed \(resends + 1) times; last: \(why)")
                }
            case .retryElsewhere(let rejection):
                guard resends < configuration.maximumTransparentResends else { return .rejected(rejection) }
            }
            resends += 1
            statistics.record(credential: credential.name, .resent)
        }
    }

    /// Stops taking requests, fails waiting callers and lets every connection close once idle.
    func shutdown() {
        perform(state.withLockedValue { locked in translate(locked.machine.shutdown(), in: &locked) })
    }

    /// Streams in use and connections, for tests and metrics.
    var snapshot: (connections: Int, ready: Int, inFlight: Int, waiting: Int, limits: [Int]) {
        state.withLockedValue { locked in
            let entries = locked.machine.entries.values
            let ready = entries.filter { $0.phase == .ready }
            return (entries.count, ready.count, locked.machine.streamsInUse, locked.machine.waitingCount, ready.map(\.limit).sorted())
        }
    }
}
