import APNsCore
import Logging
import Metrics
import NIOCore
import Synchronization
import TLS
import NIOConcurrencyHelpers

/// The connections of one (credential, endpoint): requests go to the connection with the most free
/// streams; when none is free, callers wait in a bounded line (``APNsClientConfiguration/maximumWaitingRequests``).
final class APNsConnectionPool: Sendable {
    let credential: APNsCredential
    let endpoint: APNsEndpoint
    let configuration: APNsClientConfiguration
    let group: any EventLoopGroup
    let tlsContext: TLSContext
    let statistics: APNsClientStatistics
    let logger: Logger
    let reconnect: ReconnectDelay
    let state = NIOLockedValueBox(PoolState())
    let metrics: ClientMetrics.Pool
    let waiterIDs = Atomic<UInt64>(0)

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
        reconnect = ReconnectDelay(
            floor: configuration.minimumConnectInterval,
            initial: configuration.initialReconnectDelay,
            maximum: configuration.maximumReconnectDelay
        )
    }

    /// Sends `request`, re-sending it transparently while APNs reports it unprocessed.
    func send(_ request: NotificationRequest) async throws -> APNsResponse {
        var resends = 0
        let started = ContinuousClock.now
        defer { metrics.requestDuration.record(duration: ContinuousClock.now - started) }
        while true {
            let connection = try await acquire()
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
        let (waiters, connections) = state.withLockedValue { state in
            state.isShutDown = true
            let waiters = Array(state.waiters)
            state.waiters.removeAll()
            return (waiters, state.entries.values.map(\.connection))
        }
        for waiter in waiters {
            waiter.continuation.resume(throwing: APNsSendError(.shutdown, .notProcessed, "the client is shutting down"))
        }
        for connection in connections { connection.retire(reason: "client shutdown") }
    }

    /// Streams in use and connections, for tests and metrics.
    var snapshot: (connections: Int, ready: Int, inFlight: Int, waiting: Int, limits: [Int]) {
        state.withLockedValue { state in
            let ready = state.entries.values.filter { $0.phase == .ready }
            return (state.entries.count, ready.count, state.entries.values.reduce(0) { $0 + $1.inFlight }, state.waiters.count, ready.map(\.limit).sorted())
        }
    }
}
