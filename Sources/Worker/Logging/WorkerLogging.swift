import Logging
public import WorkerConfiguration

/// Sets up swift-log once per process from the `log` section: level, and text or JSON lines on stderr.
public enum WorkerLogging {
    public static func bootstrap(_ settings: LogSection) {
        let level = Logger.Level(rawValue: settings.level.rawValue) ?? .info
        LoggingSystem.bootstrap { label in
            var handler: any LogHandler = switch settings.format {
            case .json: JSONLogHandler(label: label)
            case .text: StreamLogHandler.standardError(label: label)
            }
            handler.logLevel = level
            return handler
        }
    }
}
