/// `log`: what the worker logs and how.
public struct LogSection: Sendable, Hashable {
    /// The least severe level logged; the names are swift-log's, so `Logger.Level(rawValue:)` maps them.
    public enum Level: String, Sendable, Hashable, CaseIterable {
        case trace, debug, info, notice, warning, error, critical
    }

    /// How each log record is written.
    public enum Format: String, Sendable, Hashable, CaseIterable {
        /// One human-readable line per record.
        case text
        /// One JSON object per line, for log shippers.
        case json
    }

    /// `level`: the least severe level logged.
    public var level: Level = .info
    /// `format`: text lines or JSON lines.
    public var format: Format = .text

    /// The documented defaults.
    public init() {}
}
