import APNsCore
import Foundation
import Testing
@testable import Worker

/// What publishers get wrong, value by value: each gets a specific error, with the job's id when it can
/// be read, and no detail ever carries a control character into a log or a header.
@Suite("Decoding jobs: hostile values")
struct JobBoundaryTests {
    static let token = String(repeating: "ab", count: 32)

    func error(_ body: [UInt8], messageID: String? = nil) -> JobError? {
        if case .failure(let error) = JobDecoder.decode(JobEnvelope(body: body, messageID: messageID)) { return error }
        return nil
    }

    func error(_ json: String, messageID: String? = nil) -> JobError? {
        error(Array(json.utf8), messageID: messageID)
    }

    /// A valid job with `field` (raw JSON text) added, and id "h".
    func job(_ field: String) -> String {
        #"{"id":"h","device_token":"\#(Self.token)","topic":"com.example.app","payload":{"aps":{}},\#(field)}"#
    }

    @Test("an id that cannot be a correlation_id fails InvalidField, and is kept to answer by", arguments: [
        String(repeating: "i", count: 10_000), String(repeating: "i", count: 256), String(repeating: "€", count: 86), "a\r\nb", "tab\there", "nul\u{0}",
    ])
    func uncarriableIDs(id: String) throws {
        let escaped = String(decoding: JSONEncoder.fragment(id), as: UTF8.self)
        let failure = try #require(error(#"{"id":\#(escaped),"device_token":"\#(Self.token)","topic":"com.example.app","payload":{}}"#))
        #expect(failure.code == JobError.invalidField)
        #expect(failure.jobID == id)
        #expect(!JobIdentifier.isCarriable(id))
    }

    @Test("an id of 255 bytes, any script, is fine")
    func longestID() throws {
        let id = String(repeating: "é", count: 127) + "x"
        #expect(id.utf8.count == 255)
        #expect(throws: Never.self) { try JobDecoder.decode(JobEnvelope(body: Array(job(#""k":0"#).replacing(#""id":"h""#, with: #""id":"\#(id)""#).utf8))).get() }
    }

    @Test("an id of the wrong type, or an integer beyond 64 bits, is InvalidField with no id (or the message_id)", arguments: [
        "1.5", "true", "[1]", #"{"a":1}"#, "99999999999999999999",
    ])
    func wrongTypeIDs(id: String) {
        let body = #"{"id":\#(id),"device_token":"\#(Self.token)","topic":"com.example.app","payload":{}}"#
        #expect(error(body)?.code == JobError.invalidField)
        #expect(error(body)?.jobID == nil)
        #expect(error(body, messageID: "m-1")?.jobID == "m-1")
    }

    @Test("a value that would go into an HTTP/2 header is checked for what a header can carry", arguments: [
        (#""collapse_id":"a\r\nb""#, "BadCollapseId"), (#""collapse_id":" lead""#, "BadCollapseId"), (#""collapse_id":"trail\t""#, "BadCollapseId"),
        (#""collapse_id":"\u0000""#, "BadCollapseId"), (#""collapse_id":"\u0085""#, "BadCollapseId"),
        (#""push_type":"alert\r\nx-injected: 1""#, "InvalidPushType"), (#""push_type":"ALERT""#, "InvalidPushType"),
        (#""apns_id":"\n""#, "BadMessageId"), (#""priority":99999999999999999999"#, JobError.invalidField), (#""expiration":-1"#, "BadExpirationDate"),
    ])
    func headerValues(field: String, code: String) throws {
        let failure = try #require(error(job(field)))
        #expect(failure.code == code)
        #expect(failure.jobID == "h")
        #expect(!UntrustedText.containsControl(failure.detail), "\(failure.detail.debugDescription)")
    }

    @Test("a topic is letters, digits, '.', '-' and '_', at most 255 bytes", arguments: [
        "com.example.app\r\nx: y", "com.exämple.app", "com example", String(repeating: "a", count: 256), "com.example.app\u{0}",
    ])
    func badTopics(topic: String) throws {
        let escaped = String(decoding: JSONEncoder.fragment(topic), as: UTF8.self)
        let failure = try #require(error(#"{"id":"h","device_token":"\#(Self.token)","topic":\#(escaped),"payload":{}}"#))
        #expect(failure.code == "BadTopic")
        #expect(!UntrustedText.containsControl(failure.detail))
    }

    @Test("names and numbers outside their ranges are InvalidField", arguments: [
        #""credential":"a\nb""#, #""credential":"\#(String(repeating: "c", count: 256))""#, #""credential":"""#,
        #""deadline":1e300"#, #""deadline":-5"#, #""deadline":"soon""#, #""environment":"\u001b[31mprod""#,
    ])
    func outOfRange(field: String) throws {
        let failure = try #require(error(job(field)))
        #expect(failure.code == JobError.invalidField)
        #expect(!UntrustedText.containsControl(failure.detail), "\(failure.detail.debugDescription)")
    }

    @Test("JSON the strict reader refuses is InvalidJSON, answered by the id read before the fault")
    func invalidJSON() throws {
        let prefix = Array(#"{"id":"h","device_token":"\#(Self.token)","topic":"com.example.app","payload":{"aps":{"alert":""#.utf8)
        for (bad, problem) in [([0xC3, 0x28] as [UInt8], "invalid UTF-8"), ([0x0A], "control character"), (Array(#"\ud800"#.utf8), "lone surrogate")] {
            let failure = try #require(error(prefix + bad + Array(#""}}}"#.utf8)))
            #expect(failure.code == JobError.invalidJSON)
            #expect(failure.jobID == "h")
            #expect(failure.detail.contains(problem), "\(failure.detail)")
        }
        let twice = try #require(error(job(#""device_token":"\#(Self.token)""#)))
        #expect(twice.code == JobError.invalidJSON)
        #expect(twice.detail.contains("duplicate key \"device_token\""))
        let deep = String(repeating: "[", count: 70) + String(repeating: "]", count: 70)
        #expect(error(job(#""extra":\#(deep)"#))?.code == JobError.invalidJSON)
        #expect(error(job(#""priority":1e400"#))?.detail.contains("number out of range") == true)
    }

    @Test("a byte-order mark is refused; the message_id still answers the job")
    func byteOrderMark() {
        let failure = error([0xEF, 0xBB, 0xBF] + Array(job(#""k":0"#).utf8), messageID: "m-7")
        #expect(failure?.code == JobError.invalidJSON)
        #expect(failure?.jobID == "m-7")
    }

    @Test("an escaped key is the key it spells: a payload written as pay\\u006coad is the payload")
    func escapedKeys() throws {
        let json = #"{"id":"h","device_token":"\#(Self.token)","topic":"com.example.app","pay\u006coad":{"aps":{"badge":1}}}"#
        #expect(try JobDecoder.decode(JobEnvelope(body: Array(json.utf8))).get().request.payload == Array(#"{"aps":{"badge":1}}"#.utf8))
    }

    @Test("a body over 2 MiB is JobTooLarge, answered by its id")
    func tooLarge() {
        let body = job(#""trace":"\#(String(repeating: "x", count: 3 << 20))""#)
        #expect(error(body)?.code == JobError.jobTooLarge)
        #expect(error(body)?.jobID == "h")
    }
}

extension JSONEncoder {
    /// `text` as a JSON string literal.
    static func fragment(_ text: String) -> Data {
        (try? JSONEncoder().encode(text)) ?? Data()
    }
}
