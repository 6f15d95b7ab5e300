import APNsCore
import Foundation
public import Logging

/// One line per event on stderr: `time level label: key=value … message`, like swift-log's stream
/// handler, except that the message and every value have their control characters escaped
/// (``UntrustedText/escaped(_:)``): a job's `push_type` with CR LF in it cannot forge a second line.
public struct TextLogHandler: LogHandler {
    public var logLevel: Logger.Level = .info
    public var metadata: Logger.Metadata = [:]
    public let label: String
    private let output: LogOutput

    public init(label: String, output: LogOutput = .standardError) {
        self.label = label
        self.output = output
    }

    public subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    public func log(event: LogEvent) {
        var line = Date().formatted(Date.ISO8601FormatStyle(includingFractionalSeconds: true)) + " \(event.level) \(label):"
        let merged = metadata.merging(event.metadata ?? [:]) { $1 }
        for key in merged.keys.sorted() {
            line += " \(UntrustedText.escaped(key))=\(UntrustedText.escaped(Self.text(merged[key]!)))"
        }
        line += " \(UntrustedText.escaped(event.message.description))\n"
        output.write(Array(line.utf8))
    }

    private static func text(_ value: Logger.Metadata.Value) -> String {
        switch value {
        case .string(let text): text
        case .stringConvertible(let convertible): convertible.description
        case .array(let values): "[\(values.map(text).joined(separator: ", "))]"
        case .dictionary(let values): "[\(values.sorted { $0.key < $1.key }.map { "\($0.key): \(text($0.value))" }.joined(separator: ", "))]"
        }
    }
}
