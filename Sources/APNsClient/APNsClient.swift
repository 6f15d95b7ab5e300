public import APNsCore
public import Logging
public import NIOCore
public import NIOPosix
import NIOConcurrencyHelpers

/// Sends notifications to APNs over pooled, long-lived HTTP/2 connections, for any number of credentials.
///
/// `send` returns APNs' answer, accepted or rejected; it throws ``APNsSendError`` only when there is no
/// answer, saying whether APNs may have processed the request.
public final class APNsClient: Sendable {
    public let configuration: APNsClientConfiguration
    public let statistics = APNsClientStatistics()
    private let group: any EventLoopGroup
    private let logger: Logger
    private let pools = NIOLockedValueBox<[PoolKey: APNsConnectionPool]>([:])

    private struct PoolKey: Hashable {
        let credential: String
        let endpoint: APNsEndpoint
    }

    public init(
        configuration: APNsClientConfiguration = APNsClientConfiguration(),
        eventLoopGroup: any EventLoopGroup = MultiThreadedEventLoopGroup.singleton,
        logger: Logger = Logger(label: "apns.client")
    ) {
        self.configuration = configuration
        group = eventLoopGroup
        self.logger = logger
    }

    /// Sends one notification with `credential` to `endpoint` and returns APNs' answer.
    ///
    /// Suspends while every stream of the credential's connections is busy (up to the request timeout,
    /// in a line of bounded length). Requests APNs refused unprocessed are re-sent transparently.
    public func send(_ request: NotificationRequest, credential: APNsCredential, endpoint: APNsEndpoint) async throws -> APNsResponse {
        try await pool(for: credential, endpoint: endpoint).send(request)
    }

    /// Connections and streams of one pool: (connections, ready, streams in flight, callers waiting,
    /// stream limits of ready connections).
    public func poolState(credential: APNsCredential, endpoint: APNsEndpoint) -> (connections: Int, ready: Int, inFlight: Int, waiting: Int, limits: [Int])? {
        pools.withLockedValue { $0[PoolKey(credential: credential.name, endpoint: endpoint)] }?.snapshot
    }

    /// Stops every pool: waiting callers fail with `shutdown`, connections close once their streams end.
    public func shutdown() {
        let all = pools.withLockedValue { pools in
            defer { pools.removeAll() }
            return Array(pools.values)
        }
        for pool in all { pool.shutdown() }
    }

    private func pool(for credential: APNsCredential, endpoint: APNsEndpoint) throws -> APNsConnectionPool {
        let key = PoolKey(credential: credential.name, endpoint: endpoint)
        return try pools.withLockedValue { pools in
            if let pool = pools[key] { return pool }
            do {
                let pool = try APNsConnectionPool(
                    credential: credential, endpoint: endpoint, configuration: configuration, group: group,
                    statistics: statistics, logger: logger
                )
                pools[key] = pool
                return pool
            } catch {
                throw APNsSendError(.tlsFailed, .notProcessed, "cannot set up TLS for \(credential.name): \(error)")
            }
        }
    }
}
