import Foundation
import JSON
public import Logging

/// One JSON object per line on stderr: `time`, `level`, `label`, `message`, then the metadata, keys
/// sorted. Written by the JSON module's writer, so a line is valid JSON whatever a value holds
/// (control characters escaped, any text kept) and never spans two lines. A metadata key named like
/// one of the four fields does not replace it.
public struct JSONLogHandler: LogHandler {
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
        var object: [String: JSONValue] = [:]
        for (key, value) in metadata.merging(event.metadata ?? [:], uniquingKeysWith: { $1 }) {
            object[key] = Self.json(value)
        }
        object["time"] = .string(Date().formatted(Date.ISO8601FormatStyle(includingFractionalSeconds: true)))
        object["level"] = .string(event.level.rawValue)
        object["label"] = .string(label)
        object["message"] = .string(event.message.description)
        output.write(JSONValue.object(object).encoded() + [0x0A])
    }

    private static func json(_ value: Logger.Metadata.Value) -> JSONValue {
        switch value {
        case .string(let text): .string(text)
        case .stringConvertible(let convertible): .string(convertible.description)
        case .array(let values): .array(values.map(json))
        case .dictionary(let values): .object(values.mapValues(json))
        }
    }
}
