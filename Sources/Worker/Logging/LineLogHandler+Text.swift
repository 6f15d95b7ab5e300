import APNsCore
import Logging

extension LineLogHandler {
    /// `time level label: key=value … message`, like swift-log's stream handler, except that the message,
    /// keys and values have their control characters escaped (``UntrustedText/escaped(_:)``): a job's
    /// `push_type` with CR LF in it cannot forge a second line.
    static func textLine(_ event: LogEvent, metadata: Logger.Metadata, label: String) -> [UInt8] {
        var line = "\(now) \(event.level) \(label):"
        for key in metadata.keys.sorted() {
            line += " \(UntrustedText.escaped(key))=\(UntrustedText.escaped(text(metadata[key]!)))"
        }
        line += " \(UntrustedText.escaped(event.message.description))\n"
        return Array(line.utf8)
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
