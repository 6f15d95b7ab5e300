import Foundation
import JSON

extension JobResult {
    /// UTC with milliseconds, e.g. 2026-11-21T06:30:00.123Z.
    static let timeFormat = Date.ISO8601FormatStyle(includingFractionalSeconds: true)

    /// The JSON body of the result message: keys sorted, absent values left out.
    ///
    /// Written directly rather than with `JSONEncoder`, whose boxing, key dictionary and sorting cost
    /// about a tenth of a job's CPU; the bytes are the same as `JSONEncoder` with `.sortedKeys`,
    /// `.withoutEscapingSlashes` and dates formatted with ``timeFormat`` (a test holds them to it).
    public func encoded() -> [UInt8] {
        var writer = JSONObjectWriter(capacity: 512)
        // In sorted key order: by UTF-8 bytes, as `.sortedKeys` orders them.
        writer.field(CodingKeys.apnsID.rawValue, apnsID)
        writer.field(CodingKeys.requestID.rawValue, requestID)
        writer.field(CodingKeys.apnsUniqueID.rawValue, apnsUniqueID)
        writer.field(CodingKeys.attempts.rawValue, attempts)
        writer.field(CodingKeys.channelAction.rawValue, channelAction)
        writer.field(CodingKeys.channelID.rawValue, channelID)
        if let channels {
            writer.field(CodingKeys.channels.rawValue, json: JSONArrayWriter.write(channels) { JSONStringEscaping.append($0, to: &$1) })
        }
        writer.field(CodingKeys.completedAt.rawValue, UTCTimestamp.string(completedAt))
        writer.field(CodingKeys.credential.rawValue, credential)
        writer.field(CodingKeys.detail.rawValue, detail)
        writer.field(CodingKeys.deviceToken.rawValue, deviceToken)
        if let failures {
            writer.field(CodingKeys.failures.rawValue, json: JSONArrayWriter.write(failures, capacity: failures.count * 160) { $1.append(contentsOf: $0.encoded()) })
        }
        writer.field(CodingKeys.httpStatus.rawValue, httpStatus)
        writer.field(CodingKeys.id.rawValue, id)
        writer.field(CodingKeys.latencyMS.rawValue, latencyMS)
        writer.field(CodingKeys.messageStoragePolicy.rawValue, messageStoragePolicy)
        writer.field(CodingKeys.reason.rawValue, reason)
        writer.field(CodingKeys.status.rawValue, status.rawValue)
        writer.field(CodingKeys.timestamp.rawValue, timestamp)
        if let tokens { writer.field(CodingKeys.tokens.rawValue, json: tokens.encoded()) }
        writer.field(CodingKeys.topic.rawValue, topic)
        writer.field(CodingKeys.worker.rawValue, worker)
        // Kept for minutes among the outcomes a redelivery would publish again (`AnsweredOutcomes`,
        // which weighs it by its length): a single job's result uses 300-400 of the 512 bytes reserved.
        return writer.finishCompact()
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
