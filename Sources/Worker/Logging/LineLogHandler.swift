import Foundation
public import Logging
public import WorkerConfiguration

/// One line per log record on stderr, as text or as JSON (``LogSection/Format``), written so that
/// nothing a job puts in a message or a value can break the line or forge another: see
/// ``LineLogHandler/textLine(_:metadata:label:)`` and ``LineLogHandler/jsonLine(_:metadata:label:)``.
public struct LineLogHandler: LogHandler {
    public var logLevel: Logger.Level = .info
    public var metadata: Logger.Metadata = [:]
    public let label: String
    private let format: LogSection.Format
    private let output: LogOutput

    public init(label: String, format: LogSection.Format, output: LogOutput = .standardError) {
        self.label = label
        self.format = format
        self.output = output
    }

    public subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    public func log(event: LogEvent) {
        let merged = metadata.merging(event.metadata ?? [:]) { $1 }
        switch format {
        case .text: output.write(Self.textLine(event, metadata: merged, label: label))
        case .json: output.write(Self.jsonLine(event, metadata: merged, label: label))
        }
    }

    static var now: String { Date().formatted(Date.ISO8601FormatStyle(includingFractionalSeconds: true)) }
}
