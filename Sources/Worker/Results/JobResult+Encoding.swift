import Foundation

extension JobResult {
    /// UTC with milliseconds, e.g. 2026-11-21T06:30:00.123Z.
    static let timeFormat = Date.ISO8601FormatStyle(includingFractionalSeconds: true)

    /// One encoder for every result: ISO 8601 times, sorted keys (stable bytes for tests and diffs).
    static let encoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        encoder.dateEncodingStrategy = .custom { date, encoder in
            var container = encoder.singleValueContainer()
            try container.encode(date.formatted(Self.timeFormat))
        }
        return encoder
    }()

    /// The JSON body of the result message.
    public func encoded() -> [UInt8] {
        // Encoding plain strings, numbers and dates cannot fail.
        (try? Array(Self.encoder.encode(self))) ?? Array("{}".utf8)
    }

    /// Decodes a result body (for consumers in tests and tools).
    public static func decode(_ body: [UInt8]) throws -> JobResult {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .custom { decoder in
            try Date(try decoder.singleValueContainer().decode(String.self), strategy: Self.timeFormat)
        }
        return try decoder.decode(JobResult.self, from: Data(body))
    }
}
