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
        writer.field(Keys.apnsID, apnsID)
        writer.field(Keys.requestID, requestID)
        writer.field(Keys.apnsUniqueID, apnsUniqueID)
        writer.field(Keys.attempts, attempts)
        writer.field(Keys.channelAction, channelAction)
        writer.field(Keys.channelID, channelID)
        if let channels {
            writer.field(Keys.channels, json: JSONArrayWriter.write(channels) { JSONStringEscaping.append($0, to: &$1) })
        }
        writer.field(Keys.completedAt, UTCTimestamp.string(completedAt))
        writer.field(Keys.credential, credential)
        writer.field(Keys.detail, detail)
        writer.field(Keys.deviceToken, deviceToken)
        if let failures {
            writer.field(Keys.failures, json: JSONArrayWriter.write(failures, capacity: failures.count * 160) { $1.append(contentsOf: $0.encoded()) })
        }
        writer.field(Keys.httpStatus, httpStatus)
        writer.field(Keys.id, id)
        writer.field(Keys.latencyMS, latencyMS)
        writer.field(Keys.messageStoragePolicy, messageStoragePolicy)
        writer.field(Keys.reason, reason)
        writer.field(Keys.status, status.rawValue)
        writer.field(Keys.timestamp, timestamp)
        if let tokens { writer.field(Keys.tokens, json: tokens.encoded()) }
        writer.field(Keys.topic, topic)
        writer.field(Keys.worker, worker)
        // Kept for minutes among the outcomes a redelivery would publish again (`AnsweredOutcomes`,
        // which weighs it by its length): a single job's result uses 300-400 of the 512 bytes reserved.
        return writer.finishCompact()
    }

    /// Each member name prepared once from ``CodingKeys`` (so the two cannot drift apart), written with
    /// one copy per result.
    private enum Keys {
        static let apnsID = JSONKey(CodingKeys.apnsID.rawValue)
        static let apnsUniqueID = JSONKey(CodingKeys.apnsUniqueID.rawValue)
        static let attempts = JSONKey(CodingKeys.attempts.rawValue)
        static let channelAction = JSONKey(CodingKeys.channelAction.rawValue)
        static let channelID = JSONKey(CodingKeys.channelID.rawValue)
        static let channels = JSONKey(CodingKeys.channels.rawValue)
        static let completedAt = JSONKey(CodingKeys.completedAt.rawValue)
        static let credential = JSONKey(CodingKeys.credential.rawValue)
        static let detail = JSONKey(CodingKeys.detail.rawValue)
        static let deviceToken = JSONKey(CodingKeys.deviceToken.rawValue)
        static let failures = JSONKey(CodingKeys.failures.rawValue)
        static let httpStatus = JSONKey(CodingKeys.httpStatus.rawValue)
        static let id = JSONKey(CodingKeys.id.rawValue)
        static let latencyMS = JSONKey(CodingKeys.latencyMS.rawValue)
        static let messageStoragePolicy = JSONKey(CodingKeys.messageStoragePolicy.rawValue)
        static let reason = JSONKey(CodingKeys.reason.rawValue)
        static let requestID = JSONKey(CodingKeys.requestID.rawValue)
        static let status = JSONKey(CodingKeys.status.rawValue)
        static let timestamp = JSONKey(CodingKeys.timestamp.rawValue)
        static let tokens = JSONKey(CodingKeys.tokens.rawValue)
        static let topic = JSONKey(CodingKeys.topic.rawValue)
        static let worker = JSONKey(CodingKeys.worker.rawValue)
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
