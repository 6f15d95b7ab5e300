import CoreMetrics
import Metrics
import NIOCore

/// The client's metrics, in Prometheus naming, through swift-metrics (whatever backend the process
/// bootstrapped; none means they cost next to nothing).
enum ClientMetrics {
    static func emit(_ event: APNsClientStatistics.Event, credential: String) {
        let label = [("credential", credential)]
        switch event {
        case .goAway(let reason):
            Counter(label: "apns_goaways_total", dimensions: label + [("reason", reason)]).increment()
        case .reconnect:
            Counter(label: "apns_reconnects_total", dimensions: label).increment()
        case .tokenRefreshed:
            Counter(label: "apns_token_refreshes_total", dimensions: label).increment()
        case .tokenAge(let seconds):
            Gauge(label: "apns_token_age_seconds", dimensions: label).record(seconds)
        case .pingRoundTrip(let time):
            Gauge(label: "apns_ping_rtt_seconds", dimensions: label).record(Double(time.nanoseconds) / 1e9)
        case .timedOut:
            Counter(label: "apns_request_timeouts_total", dimensions: label).increment()
        case .streamRefused:
            Counter(label: "apns_streams_refused_total", dimensions: label).increment()
        case .recycled(let reason):
            Counter(label: "apns_connections_recycled_total", dimensions: label + [("reason", reason)]).increment()
        case .pingTimeout:
            Counter(label: "apns_ping_timeouts_total", dimensions: label).increment()
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
            requestDuration = Timer(label: "apns_request_duration_seconds", dimensions: label)
            streamsInUse = Gauge(label: "apns_connection_streams_in_use", dimensions: label)
            streamLimit = Gauge(label: "apns_connection_stream_limit", dimensions: label)
        }
    }
}
