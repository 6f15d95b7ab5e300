import Foundation
import Testing
@testable import Worker

/// The hand-written result encoder against the `JSONEncoder` setup it replaced: same bytes, always.
@Suite("Result encoding")
struct JobResultEncodingTests {
    /// How results were encoded before: `JSONEncoder`, sorted keys, unescaped slashes, ISO 8601 dates
    /// with milliseconds.
    static let reference: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        encoder.dateEncodingStrategy = .custom { date, encoder in
            var container = encoder.singleValueContainer()
            try container.encode(date.formatted(JobResult.timeFormat))
        }
        return encoder
    }()

    static func expectSameBytes(_ result: JobResult, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let expected = try reference.encode(result)
        let actual = result.encoded()
        #expect(String(decoding: actual, as: UTF8.self) == String(decoding: expected, as: UTF8.self), sourceLocation: sourceLocation)
        #expect(actual == Array(expected), sourceLocation: sourceLocation)
    }

    /// Every field set, to `text` where it is a string.
    static func full(_ status: JobStatus, text: String, number: Int64, date: Date) -> JobResult {
        var result = JobResult(id: text, status: status, attempts: Int(truncatingIfNeeded: number), completedAt: date, worker: text)
        result.apnsID = text
        result.apnsUniqueID = text
        result.httpStatus = Int(truncatingIfNeeded: number)
        result.reason = text
        result.detail = text
        result.timestamp = number
        result.deviceToken = text
        result.topic = text
        result.credential = text
        result.latencyMS = number
        return result
    }

    static let statuses: [JobStatus] = [.delivered, .rejected, .failed, .expired]

    @Test("every status, with only the fields every result has", arguments: statuses)
    func minimal(status: JobStatus) throws {
        try Self.expectSameBytes(JobResult(id: nil, status: status, attempts: 0, completedAt: Date(timeIntervalSince1970: 0), worker: ""))
        try Self.expectSameBytes(JobResult(id: "job-1", status: status, attempts: 3, completedAt: Date(timeIntervalSince1970: 1_763_705_400.123), worker: "worker-1"))
    }

    @Test("every status, with every field", arguments: statuses)
    func everyField(status: JobStatus) throws {
        try Self.expectSameBytes(Self.full(status, text: "order-48213 shipped", number: 410, date: Date(timeIntervalSince1970: 1_800_000_000.25)))
    }

    @Test("a result's bytes sit in an allocation of their own size, not in the room reserved to write them")
    func compact() {
        // A delivered single job's result, as long as the ones the worker remembers for redeliveries.
        var result = JobResult(id: "8c1f0e6a-4d2b-4f7e-9a31-2b7c5d9e0f14", status: .delivered, attempts: 1, completedAt: Date(), worker: "apns-worker-7d9f")
        result.apnsID = "3f2504e0-4f89-11d3-9a0c-0305e82c3301"
        result.deviceToken = "a1b2c3d4…"
        result.credential = "team-one"
        result.topic = "com.example.app"
        result.latencyMS = 3
        let body = result.encoded()
        #expect(body.count < 512, "shorter than what the writer reserves: \(body.count)")
        // malloc rounds an allocation up to 16 bytes, and Swift counts the rounding as capacity.
        #expect(body.capacity - body.count < 16, "capacity \(body.capacity) for \(body.count) bytes")
    }

    @Test("strings that need escaping, and ones that must not be escaped", arguments: [
        "", "\"", "\\", "/", "a/b\\c\"d", "\u{7F}", "é", "日本語", "🚀 shipped", "\u{2028}\u{2029}", "\u{FEFF}",
        "line\nbreak\rreturn\ttab\u{8}back\u{C}feed", "\u{0}\u{1}\u{1F}\u{10}\u{0B}", "ends with \\",
        String((0..<128).map { Character(UnicodeScalar(UInt8($0))) }),
    ])
    func escaping(text: String) throws {
        for status in Self.statuses {
            try Self.expectSameBytes(Self.full(status, text: text, number: 7, date: Date(timeIntervalSince1970: 1_763_705_400.999)))
        }
    }

    @Test("numbers at their limits, and dates far apart", arguments: [Int64.min, -1, 0, 1, 200, Int64(Int32.max), Int64.max])
    func numbers(number: Int64) throws {
        for seconds in [-86_400.5, 0, 0.0005, 978_307_200, 1_763_705_400.0015, 4_102_444_800.5] {
            try Self.expectSameBytes(Self.full(.failed, text: "x", number: number, date: Date(timeIntervalSince1970: seconds)))
        }
    }

    @Test("random results: random fields left out, random text from an alphabet full of escapes")
    func random() throws {
        var generator = SystemRandomNumberGenerator()
        let alphabet = Array("ab/\\\"\n\t\u{0}\u{1F} é🚀\u{7F}{}[]:,")
        func text() -> String? {
            Bool.random(using: &generator) ? nil : String((0..<Int.random(in: 0..<12, using: &generator)).map { _ in alphabet.randomElement(using: &generator)! })
        }
        func number() -> Int64? { Bool.random(using: &generator) ? nil : Int64.random(in: -1_000_000...Int64.max, using: &generator) }
        for _ in 0..<2000 {
            let date = Date(timeIntervalSince1970: Double.random(in: 0...4_000_000_000, using: &generator))
            var result = JobResult(id: text(), status: Self.statuses.randomElement(using: &generator)!, attempts: Int.random(in: 0...100), completedAt: date, worker: text() ?? "")
            result.apnsID = text()
            result.apnsUniqueID = text()
            result.httpStatus = number().map { Int($0 % 1000) }
            result.reason = text()
            result.detail = text()
            result.timestamp = number()
            result.deviceToken = text()
            result.topic = text()
            result.credential = text()
            result.latencyMS = number()
            try Self.expectSameBytes(result)
        }
    }
}
