import Metrics
import NIOCore
import NIOConcurrencyHelpers

/// Counters of what the client's connections went through: what tests assert, and the source of the
/// client's Prometheus metrics (through swift-metrics, labelled by credential).
public final class APNsClientStatistics: Sendable {
    /// A point-in-time copy of every counter.
    public struct Snapshot: Hashable, Sendable {
        public var connectAttempts = 0
        public var connectionsEstablished = 0
        public var connectFailures = 0
        /// GOAWAY frames received, by the reason in their debug data.
        public var goAwaysByReason: [String: Int] = [:]
        /// Streams refused unprocessed (REFUSED_STREAM or above a GOAWAY's last stream id).
        public var refusedStreams = 0
        /// Requests sent again transparently after "not processed".
        public var transparentResends = 0
        public var timeouts = 0
        public var pingTimeouts = 0
        /// Round trip of the last answered PING, in nanoseconds.
        public var lastPingRoundTripNanoseconds: Int64?
        /// Tokens changed on a connection (refresh age reached, or ExpiredProviderToken).
        public var tokenRefreshes = 0
        /// Connections retired because of an APNs reason (TooManyProviderTokenUpdates, Shutdown, IdleTimeout).
        public var recycledByReason: [String: Int] = [:]
    }

    enum Event: Hashable {
        case connectAttempt, connected, connectFailed, streamRefused, resent, timedOut, pingTimeout, tokenRefreshed
        case goAway(reason: String)
        case recycled(String)
        case pingRoundTrip(TimeAmount)
        /// A connection of the pool closed or failed to open, and will be replaced.
        case reconnect
        /// The age of the token a connection just used.
        case tokenAge(seconds: Double)
    }

    private let counters = NIOLockedValueBox(Snapshot())

    public init() {}

    public var snapshot: Snapshot { counters.withLockedValue { $0 } }

    func record(credential: String, _ event: Event) {
        ClientMetrics.emit(event, credential: credential)
        counters.withLockedValue { counters in
            switch event {
            case .connectAttempt: counters.connectAttempts += 1
            case .connected: counters.connectionsEstablished += 1
            case .connectFailed: counters.connectFailures += 1
            case .streamRefused: counters.refusedStreams += 1
            case .resent: counters.transparentResends += 1
            case .timedOut: counters.timeouts += 1
            case .pingTimeout: counters.pingTimeouts += 1
            case .tokenRefreshed: counters.tokenRefreshes += 1
            case .goAway(let reason): counters.goAwaysByReason[reason, default: 0] += 1
            case .recycled(let reason): counters.recycledByReason[reason, default: 0] += 1
            case .pingRoundTrip(let time): counters.lastPingRoundTripNanoseconds = time.nanoseconds
            case .reconnect, .tokenAge: break
            }
        }
    }
}
