import JSON
import Logging

extension LineLogHandler {
    /// One JSON object: `time`, `level`, `label`, `message`, then the metadata, keys sorted. Written by the
    /// JSON module's writer, so it is valid JSON whatever a value holds and never spans two lines; a
    /// metadata key named like one of the four fields does not replace it.
    static func jsonLine(_ event: LogEvent, metadata: Logger.Metadata, label: String) -> [UInt8] {
        var object = metadata.mapValues(json)
        object["time"] = .string(now)
        object["level"] = .string(event.level.rawValue)
        object["label"] = .string(label)
        object["message"] = .string(event.message.description)
        return JSONValue.object(object).encoded() + [0x0A]
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
