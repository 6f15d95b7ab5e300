/// One metric a process exports: its Prometheus name, kind, labels and help text. The catalogs of
/// these (``ClientMetrics/catalog``, the worker's) are the one list the code creates its instruments
/// from and that the `# HELP` lines, the docs and the dashboard are checked against.
public struct MetricDescription: Sendable, Hashable {
    public enum Kind: String, Sendable {
        case counter, gauge, histogram
    }

    /// The Prometheus name, e.g. `apns_goaways_total`.
    public let name: String
    public let kind: Kind
    /// Label names, in the order the code gives them.
    public let labels: [String]
    /// One line for `# HELP`.
    public let help: String

    public init(_ name: String, _ kind: Kind, labels: [String] = [], help: String) {
        self.name = name
        self.kind = kind
        self.labels = labels
        self.help = help
    }
}
