import CoreMetrics
import Metrics
import NIOCore

/// The client's metrics, in Prometheus naming, through swift-metrics (whatever backend the process
/// bootstrapped; none means they cost next to nothing).
public enum ClientMetrics {
    static let goaways = MetricDescription("apns_goaways_total", .counter, labels: ["credential", "reason"], help: "GOAWAY frames received from APNs, by HTTP/2 error or APNs reason.")
    static let reconnects = MetricDescription("apns_reconnects_total", .counter, labels: ["credential"], help: "APNs connections opened to replace one that closed.")
    static let tokenRefreshes = MetricDescription("apns_token_refreshes_total", .counter, labels: ["credential"], help: "Provider token changes on a connection: a new JWT in place of one it used (every 20 to 59 minutes).")
    static let tokenAge = MetricDescription("apns_token_age_seconds", .gauge, labels: ["credential"], help: "Age of a connection's provider token at its last request (updated at most once a second while requests go).")
    static let pingRoundTrip = MetricDescription("apns_ping_rtt_seconds", .gauge, labels: ["credential"], help: "The last HTTP/2 PING round trip to APNs.")
    static let requestTimeouts = MetricDescription("apns_request_timeouts_total", .counter, labels: ["credential"], help: "Requests APNs did not answer within the request timeout (outcome unknown).")
    static let streamsRefused = MetricDescription("apns_streams_refused_total", .counter, labels: ["credential"], help: "Streams APNs refused unprocessed (REFUSED_STREAM); they are sent again.")
    static let connectionsRecycled = MetricDescription("apns_connections_recycled_total", .counter, labels: ["credential", "reason"], help: "APNs connections retired on purpose (token rules, idle, errors).")
    static let pingTimeouts = MetricDescription("apns_ping_timeouts_total", .counter, labels: ["credential"], help: "HTTP/2 PINGs APNs left unanswered (the connection is replaced).")
    static let requestDuration = MetricDescription("apns_request_duration_seconds", .histogram, labels: ["credential"], help: "APNs request round trips, from the request written to the answer read.")
    static let streamsInUse = MetricDescription("apns_connection_streams_in_use", .gauge, labels: ["credential"], help: "Streams open on the credential's APNs connections.")
    static let streamLimit = MetricDescription("apns_connection_stream_limit", .gauge, labels: ["credential"], help: "Streams the credential's APNs connections allow now.")

    /// Every metric the client exports.
    public static let catalog = [
        goaways, reconnects, tokenRefreshes, tokenAge, pingRoundTrip, requestTimeouts, streamsRefused, connectionsRecycled, pingTimeouts,
        requestDuration, streamsInUse, streamLimit,
    ]

    static func emit(_ event: APNsClientStatistics.Event, credential: String) {
        let label = [("credential", credential)]
        switch event {
        case .goAway(let reason):
            Counter(label: goaways.name, dimensions: label + [("reason", reason)]).increment()
        case .reconnect:
            Counter(label: reconnects.name, dimensions: label).increment()
        case .tokenRefreshed:
            Counter(label: tokenRefreshes.name, dimensions: label).increment()
        case .tokenAge(let seconds):
            Gauge(label: tokenAge.name, dimensions: label).record(seconds)
        case .pingRoundTrip(let time):
            Gauge(label: pingRoundTrip.name, dimensions: label).record(Double(time.nanoseconds) / 1e9)
        case .timedOut:
            Counter(label: requestTimeouts.name, dimensions: label).increment()
        case .streamRefused:
            Counter(label: streamsRefused.name, dimensions: label).increment()
        case .recycled(let reason):
            Counter(label: connectionsRecycled.name, dimensions: label + [("reason", reason)]).increment()
        case .pingTimeout:
            Counter(label: pingTimeouts.name, dimensions: label).increment()
        case .connectAttempt, .connected, .connectFailed, .resent:
            break
        }
    }

    /// Per-pool instruments, created once: they are touched on every request.
    struct Pool: Sendable {
        let requestDuration: Timer
        let streamsInUse: Gauge
        let streamLimit: Gauge

        init(credential: String) {
            let label = [("credential", credential)]
            requestDuration = Timer(label: ClientMetrics.requestDuration.name, dimensions: label)
            streamsInUse = Gauge(label: ClientMetrics.streamsInUse.name, dimensions: label)
            streamLimit = Gauge(label: ClientMetrics.streamLimit.name, dimensions: label)
        }
    }
}
