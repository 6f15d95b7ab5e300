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
    private let pools = NIOLockedValueBox(PoolTable<PoolKey, APNsConnectionPool>())

    private struct PoolKey: Hashable {
        let credential: String
        let revision: Int
        let endpoint: APNsEndpoint

        init(_ credential: APNsCredential, _ endpoint: APNsEndpoint) {
            self.credential = credential.name
            revision = credential.revision
            self.endpoint = endpoint
        }
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
    /// An `urgent` request (a one-time passcode) may take the tenth of each connection's streams other
    /// requests leave free, and waits in a line served before theirs.
    public func send(_ request: NotificationRequest, credential: APNsCredential, endpoint: APNsEndpoint, urgent: Bool = false) async throws -> APNsResponse {
        try await pool(for: credential, endpoint: endpoint).send(.notification(request), urgent: urgent)
    }

    /// How many of a connection's `limit` streams requests that are not urgent may hold at once: the
    /// rest are kept for urgent ones. A caller that keeps more ordinary requests in flight than this
    /// (times the connections) has the surplus wait in the pool's line.
    public static func ordinaryStreams(ofLimit limit: Int) -> Int {
        limit - PoolStateMachine<SystemRandomNumberGenerator>.reservedStreams(of: limit)
    }

    /// The same without a task: `completion` hears APNs' answer, or why there is none, once: on the
    /// event loop of the connection that answered (or wherever it turned out that none could), so
    /// what a caller does with the answer runs where it arrived, with no hop back to a task.
    /// Nothing cancels it; the request timeout bounds its wait.
    public func send(
        _ request: consuming NotificationRequest, credential: APNsCredential, endpoint: APNsEndpoint, urgent: Bool = false,
        completion: @escaping @Sendable (Result<APNsResponse, APNsSendError>) -> Void
    ) {
        do {
            try pool(for: credential, endpoint: endpoint).send(.notification(request), urgent: urgent, completion: completion)
        } catch {
            // pool(for:) throws nothing else.
            completion(.failure(error as? APNsSendError ?? APNsSendError(.tlsFailed, .notProcessed, "\(error)")))
        }
    }

    /// Sends one broadcast-channel request (management, to a channel-management endpoint; or a
    /// broadcast, to a push endpoint) and returns APNs' answer: for a create, the new id in
    /// ``APNsAcceptance/channelID``; for a read or list, the JSON in ``APNsAcceptance/body``.
    ///
    /// The same pooled connections and rules as pushes; a request APNs refused unprocessed is re-sent,
    /// which is safe even for a create (APNs did not act on it).
    public func send(_ request: ChannelRequest, credential: APNsCredential, endpoint: APNsEndpoint, urgent: Bool = false) async throws -> APNsResponse {
        try await pool(for: credential, endpoint: endpoint).send(.channel(request), urgent: urgent)
    }

    /// Connections and streams of one pool: (connections, ready, streams in flight, callers waiting,
    /// stream limits of ready connections).
    public func poolState(credential: APNsCredential, endpoint: APNsEndpoint) -> (connections: Int, ready: Int, inFlight: Int, waiting: Int, limits: [Int])? {
        pools.withLockedValue { $0.peek(PoolKey(credential, endpoint)) }?.snapshot
    }

    /// Stops every pool: waiting callers fail with `shutdown`, connections close once their streams end.
    public func shutdown() {
        let all = pools.withLockedValue { $0.removeAll() }
        for pool in all { pool.shutdown() }
    }

    /// Retires one revision of a credential (replaced or removed by a reload): its pools take no new
    /// callers once `grace` has passed (time for a send that picked the old revision just before the
    /// reload to reach its pool), finish what they have in flight and waiting, then close. Pools still
    /// busy after `patience` close anyway: their waiting callers fail unprocessed (the job is retried).
    public func retire(credential name: String, revision: Int, grace: Duration = .seconds(1), patience: Duration = .seconds(60)) async {
        try? await Task.sleep(for: grace)
        let deadline = ContinuousClock.now + patience
        while true {
            let late = ContinuousClock.now >= deadline
            // Removed from the map under the lock, when idle (or late): no new caller can find them then.
            let (removed, busy) = pools.withLockedValue { pools in
                var removed: [APNsConnectionPool] = []
                var busy = 0
                for (key, pool) in pools.all where key.credential == name && key.revision == revision {
                    let state = pool.snapshot
                    if late || (state.inFlight == 0 && state.waiting == 0) {
                        pools.remove(key)
                        removed.append(pool)
                    } else {
                        busy += 1
                    }
                }
                return (removed, busy)
            }
            if late, !removed.isEmpty {
                logger.warning("retired credential still busy; closing its connections", metadata: ["credential": "\(name)", "revision": "\(revision)"])
            }
            for pool in removed { pool.shutdown() }
            if busy == 0 { return }
            try? await Task.sleep(for: .milliseconds(100))
        }
    }

    /// Pools open now, by credential name and revision (for tests and metrics).
    public var openPools: [(credential: String, revision: Int)] {
        pools.withLockedValue { $0.all.map { ($0.key.credential, $0.key.revision) } }
    }

    private func pool(for credential: APNsCredential, endpoint: APNsEndpoint) throws -> APNsConnectionPool {
        let key = PoolKey(credential, endpoint)
        return try pools.withLockedValue { pools in
            if let pool = pools.pool(for: key) { return pool }
            do {
                let pool = try APNsConnectionPool(
                    credential: credential, endpoint: endpoint, configuration: configuration, group: group,
                    statistics: statistics, logger: logger
                )
                pools.insert(pool, for: key)
                return pool
            } catch {
                throw APNsSendError(.tlsFailed, .notProcessed, "cannot set up TLS for \(credential.name): \(error)")
            }
        }
    }
}
