import APNsClient
import APNsCore
import Foundation
import Logging
import NIOCore
import NIOPosix
import Synchronization
import TLS

/// Sends N notifications through the APNs client to a mock process, as fast as the streams allow.
struct ClientBenchmark {
    struct Result {
        let connections: Int
        let rate: Double
        let latency: LatencySummary
        let cpuMicrosecondsPerNotification: Double
        let peakRSSMiB: Double
        let failures: Int
        let statistics: APNsClientStatistics.Snapshot
    }

    /// Where the sending tasks run.
    enum Callers: CaseIterable {
        /// On Swift's cooperative pool, as the worker's jobs run: each request hops onto the
        /// connection's event loop and each answer back.
        case cooperativePool
        /// On the connections' one event loop (``EventLoopTaskExecutor``), as h2load's single thread:
        /// no hop either way.
        case eventLoop
        /// No tasks: chains of callbacks on the connections' one event loop (``CallbackChains``), as a
        /// worker's shard answers its single-device jobs on the loop that holds its connections.
        case callbacks

        var label: String {
            switch self {
            case .cooperativePool: "callers on the cooperative pool"
            case .eventLoop: "callers on the connection's loop"
            case .callbacks: "callbacks, no tasks"
            }
        }
    }

    let count: Int
    let payload: [UInt8]
    let deviceToken: String
    var callers = Callers.cooperativePool
    /// When positive, the requests go to this many devices in turn, each under an
    /// apns-id of its own, as a multicast job's do; zero sends one device's request unchanged, as h2load
    /// sends one request.
    var distinctDevices = 0

    /// The token credential of the test key, which the mock accepts (and the worker's bench
    /// configuration names too).
    static func credential() throws -> APNsCredential {
        let key = try ES256PrivateKey(pemRepresentation: String(contentsOfFile: "Tests/Fixtures/keys/AuthKey_TESTKEY001.p8", encoding: .utf8))
        return APNsCredential(
            name: "bench",
            authentication: .token(ProviderTokenSource(signer: try ProviderTokenSigner(teamID: "TEAMID0001", keyID: "TESTKEY001", key: key), policy: try ProviderTokenPolicy()))
        )
    }

    func run(connections: Int, streamsPerConnection: Int, port: Int) async throws -> Result {
        var configuration = APNsClientConfiguration()
        configuration.connectionsPerPool = connections
        configuration.trustsSystemStore = false
        configuration.additionalTrustedCAFile = "Tests/Fixtures/tls/ca.pem"
        configuration.minimumConnectInterval = .milliseconds(1)
        configuration.maximumWaitingRequests = connections * streamsPerConnection * 2
        var logger = Logger(label: "bench")
        logger.logLevel = .error
        // Callers on the loop, and callbacks: one loop for every connection, as h2load runs on one
        // thread and a worker's shard keeps its connections on its own loop.
        let loop = callers == .cooperativePool ? nil : MultiThreadedEventLoopGroup(numberOfThreads: 1)
        let executor = callers == .eventLoop ? loop.map { EventLoopTaskExecutor($0.next()) } : nil
        let client = APNsClient(configuration: configuration, eventLoopGroup: loop ?? .singleton, logger: logger)
        defer {
            client.shutdown()
            loop?.shutdownGracefully { _ in }
        }
        let credential = try Self.credential()
        let endpoint = APNsEndpoint(host: "localhost", port: port)
        let request = try NotificationRequest(deviceToken: DeviceToken(hex: deviceToken), topic: "com.example.app", apnsID: nil, payload: payload)
        // Warm up: opens the connections and ramps their stream limits.
        for _ in 0..<(connections * 4) { _ = try await client.send(request, credential: credential, endpoint: endpoint) }

        // As h2load keeps every stream the server allows busy (`-m`), the client keeps busy every stream
        // its ordinary requests may hold. More would time the pool's waiting line instead: each answer
        // then serves a waiting caller through a hop to its connection's loop, which a worker whose job
        // slots are fewer than its streams never does.
        let inFlight = connections * APNsClient.ordinaryStreams(ofLimit: streamsPerConnection)
        let addresses = distinctDevices > 0 ? RequestAddresses(devices: distinctDevices, count: count) : .unchanged
        let tally = Tally(count)
        let clock = ContinuousClock()
        let before = ResourceUsage.now()
        let started = clock.now
        let latencies = callers == .callbacks
            ? await CallbackChains(client: client, request: request, addresses: addresses, credential: credential, endpoint: endpoint, tally: tally, chains: inFlight)
                .run(chains: inFlight)
            : try await withThrowingTaskGroup(of: [Double].self) { group in
            for _ in 0..<inFlight {
                group.addTask(executorPreference: executor) {
                    var samples: [Double] = []
                    while case let left = tally.remaining.subtract(1, ordering: .relaxed).oldValue, left > 0 {
                        let sent = clock.now
                        do {
                            let addressed = addresses.request(left - 1, from: request)
                            guard case .accepted = try await client.send(addressed, credential: credential, endpoint: endpoint) else {
                                tally.failures.add(1, ordering: .relaxed)
                                continue
                            }
                        } catch {
                            tally.failures.add(1, ordering: .relaxed)
                            continue
                        }
                        samples.append((clock.now - sent).milliseconds)
                    }
                    return samples
                }
            }
            var all: [Double] = []
            all.reserveCapacity(count)
            for try await samples in group { all += samples }
            return all
        }
        let elapsed = (clock.now - started).milliseconds / 1000
        let after = ResourceUsage.now()
        return Result(
            connections: connections,
            rate: Double(count) / elapsed,
            latency: LatencySummary(latencies),
            cpuMicrosecondsPerNotification: (after.cpuSeconds - before.cpuSeconds) * 1e6 / Double(count),
            peakRSSMiB: after.peakRSSMiB,
            failures: tally.failures.load(ordering: .relaxed),
            statistics: client.statistics.snapshot
        )
    }
}

/// Work left and failures seen, shared by the sending tasks.
final class Tally: Sendable {
    let remaining: Atomic<Int>
    let failures = Atomic(0)

    init(_ count: Int) { remaining = Atomic(count) }
}

extension Duration {
    var milliseconds: Double { microseconds / 1000 }
}
