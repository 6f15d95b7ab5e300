import HTTP2
public import Logging
public import NIOCore
public import NIOPosix
import TLS
import Transport
import NIOConcurrencyHelpers

/// A mock APNs: TLS + HTTP/2 on the same cores as the client, validating like APNs, injecting faults on
/// command, and recording what it accepted.
public final class MockAPNsServer: Sendable {
    public let configuration: MockServerConfiguration
    public let recorder = DeliveryRecorder()
    /// The broadcast channels created on this server, and what was broadcast to them.
    public let channels: ChannelDirectory
    let validator: RequestValidator
    private let context: TLSContext
    private let group: any EventLoopGroup
    let logger: Logger
    private let state = NIOLockedValueBox(State())

    private struct State {
        var faults = MockFaults()
        var forcedRemaining = 0
        var channel: (any Channel)?
        /// Answers ``MockFaults/holdAfterRequests`` holds back, each sending itself on its connection's loop.
        var held: [@Sendable () -> Void] = []
    }

    public init(configuration: MockServerConfiguration, group: any EventLoopGroup = MultiThreadedEventLoopGroup.singleton, logger: Logger = Logger(label: "apns.mock")) throws {
        self.configuration = configuration
        self.group = group
        self.logger = logger
        context = try TLSContext(server: configuration.tls)
        validator = RequestValidator(configuration: configuration.apns, clock: configuration.clock)
        channels = ChannelDirectory(maximumPerApp: configuration.apns.maximumChannelsPerApp)
        setFaults(configuration.faults)
    }

    /// Starts listening and returns the port (the configured one, or the one the system picked).
    @discardableResult
    public func start() async throws -> Int {
        let channel = try await ServerBootstrap(group: group)
            .serverChannelOption(.backlog, value: 256)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .childChannelOption(.tcpOption(.tcp_nodelay), value: 1)
            .childChannelInitializer { [self] channel in
                channel.eventLoop.makeCompletedFuture {
                    let handler = SecureHTTP2Handler(pipe: SecureHTTP2Pipe(tls: try TLSConnection(context: context)) {
                        // One stream until a push with a valid token succeeds; certificate connections are raised at once.
                        try HTTP2Session(role: .server, settings: HTTP2Settings(maxConcurrentStreams: 1, connectionWindowSize: 4 << 20))
                    })
                    let connection = MockConnection(server: self, handler: handler, eventLoop: channel.eventLoop)
                    handler.delegate = connection
                    // The handler holds its delegate weakly; the channel keeps the connection alive.
                    channel.closeFuture.whenComplete { _ in _ = connection }
                    try channel.pipeline.syncOperations.addHandler(handler)
                }
            }
            .bind(host: configuration.host, port: configuration.port)
            .get()
        state.withLockedValue { $0.channel = channel }
        let port = channel.localAddress?.port ?? configuration.port
        logger.info("mock APNs listening", metadata: ["address": "\(configuration.host):\(port)"])
        return port
    }

    /// Stops listening; open connections close with their clients.
    public func stop() async {
        let channel = state.withLockedValue { state in
            defer { state.channel = nil }
            return state.channel
        }
        try? await channel?.close()
    }

    /// The faults in force now.
    public var faults: MockFaults { state.withLockedValue { $0.faults } }

    /// Replaces the faults in force; `forcedReasonCount` starts counting anew. Faults that hold no
    /// answers send every answer held so far.
    public func setFaults(_ faults: MockFaults) {
        changeFaults { state in
            state.faults = faults
            state.forcedRemaining = faults.forcedReason == nil ? 0 : faults.forcedReasonCount
        }
    }

    /// Stops holding answers (``MockFaults/holdAfterRequests``) and sends every answer held so far; the
    /// other faults, and what they have counted, stay as they are.
    public func releaseHeldAnswers() {
        changeFaults { $0.faults.holdAfterRequests = nil }
    }

    /// Applies `change` under the lock; when the faults then hold no answers, sends every answer held
    /// so far, outside the lock.
    private func changeFaults(_ change: (inout State) -> Void) {
        let released = state.withLockedValue { state -> [@Sendable () -> Void] in
            change(&state)
            guard state.faults.holdAfterRequests == nil else { return [] }
            defer { state.held = [] }
            return state.held
        }
        for answer in released { answer() }
    }

    /// Keeps `answer` for later if the faults in force hold the answer to request number
    /// `requestsSoFar`; true when it did. Decided under the lock ``setFaults(_:)`` takes, so an answer
    /// is either held before a release or not held at all.
    func hold(request requestsSoFar: Int, _ answer: @escaping @Sendable () -> Void) -> Bool {
        state.withLockedValue { state in
            guard let limit = state.faults.holdAfterRequests, requestsSoFar > limit else { return false }
            state.held.append(answer)
            return true
        }
    }

    /// Takes one of the remaining forced rejections, if any.
    func takeForcedReason() -> String? {
        state.withLockedValue { state in
            guard let reason = state.faults.forcedReason, state.forcedRemaining > 0 else { return nil }
            state.forcedRemaining -= 1
            return reason
        }
    }
}
