/// `metrics`: the HTTP listener for Prometheus metrics and health checks.
public struct MetricsSection: Sendable, Hashable {
    /// The address to listen on.
    public var host: String = "0.0.0.0"
    /// The port to listen on; `nil` disables the listener.
    public var port: Int? = 9090

    /// The documented defaults.
    public init() {}
}
