import Foundation
@testable import Worker

/// The hostile jobs of the `hostile-input` scenario, one per way a buggy publisher can get a job wrong,
/// grouped by class, each with the outcome the worker must give it. Ids start with "hostile-".
enum HostileJobs {
    static let token = String(repeating: "a7", count: 32)
    static let valid = #""device_token":"\#(token)","topic":"com.example.app","payload":{"aps":{"alert":"hi"}}"#

    /// A job `{"id":id,<fields>}`; outcome delivered unless `fails` names the failure code.
    static func job(_ id: String, _ fields: String, fails code: String? = nil, amqpCase: String? = nil) -> FaultJob {
        let escapedID = String(decoding: (try? JSONEncoder().encode(id)) ?? Data(), as: UTF8.self)
        let body = Array("{\"id\":\(escapedID),\(fields)}".utf8)
        guard let code else { return FaultJob(id: id, body: body, outcomes: [.delivered], amqpCase: amqpCase) }
        return FaultJob(id: id, body: body, outcomes: [.failed(code)], deadLetters: true, amqpCase: amqpCase)
    }

    /// A job whose id cannot be read: dead-lettered, with no result.
    static func unanswerable(_ name: String, _ body: [UInt8], amqpCase: String? = nil) -> FaultJob {
        FaultJob(id: "hostile-\(name)", body: body, outcomes: [], deadLetters: true, amqpCase: amqpCase)
    }

    static func with(_ field: String) -> String {
        "\(valid),\(field)"
    }

    static func long(_ count: Int, _ unit: String = "x") -> String {
        String(repeating: unit, count: count)
    }

    static var all: [FaultJob] { overLong + nonASCII + controls + nesting + numbers + wrongTypes + badUTF8 + large + keys + amqp }

    static let overLong: [FaultJob] = [
        job("hostile-long-id-" + long(10_000), valid, fails: JobError.invalidField),
        job("hostile-long-token", #""device_token":"\#(long(100_000, "ab"))","topic":"com.example.app","payload":{}"#, fails: "BadDeviceToken"),
        job("hostile-long-topic", #""device_token":"\#(token)","topic":"com.\#(long(10_000))","payload":{}"#, fails: "BadTopic"),
        job("hostile-long-push-type", with(#""push_type":"\#(long(1_000))""#), fails: "InvalidPushType"),
        job("hostile-long-collapse-id", with(#""collapse_id":"\#(long(1_000))""#), fails: "BadCollapseId"),
        job("hostile-long-apns-id", with(#""apns_id":"\#(long(1_000))""#), fails: "BadMessageId"),
        job("hostile-long-credential", with(#""credential":"\#(long(10_000))""#), fails: JobError.invalidField),
        job("hostile-long-environment", with(#""environment":"\#(long(1_000))""#), fails: JobError.invalidField),
        job("hostile-long-alert", #""device_token":"\#(token)","topic":"com.example.app","payload":{"aps":{"alert":"\#(long(10_000))"}}"#, fails: "PayloadTooLarge"),
        job("hostile-long-unknown-field", with(#""trace":"\#(long(1 << 20))""#)),
    ]

    static let nonASCII: [FaultJob] = [
        job("hostile-ジョブ-id", valid),
        job("hostile-fullwidth-token", #""device_token":"\#(long(32, "ａｂ"))","topic":"com.example.app","payload":{}"#, fails: "BadDeviceToken"),
        job("hostile-unicode-topic", #""device_token":"\#(token)","topic":"com.例え.app","payload":{}"#, fails: "BadTopic"),
        job("hostile-unicode-push-type", with(#""push_type":"alërt""#), fails: "InvalidPushType"),
        job("hostile-unicode-collapse-id", with(#""collapse_id":"東京 update 😀""#)),
        job("hostile-unicode-credential", with(#""credential":"ключ""#), fails: JobError.unknownCredential),
        job("hostile-unicode-payload", #""device_token":"\#(token)","topic":"com.example.app","payload":{"aps":{"alert":"שלום 😀 \u202E"}}"#),
    ]

    static let controls: [FaultJob] = [
        job("hostile-crlf-id\r\nforged", valid, fails: JobError.invalidField),
        job("hostile-crlf-collapse-id", with(#""collapse_id":"a\r\nb""#), fails: "BadCollapseId"),
        job("hostile-crlf-topic", #""device_token":"\#(token)","topic":"com.example.app\r\nx-injected: 1","payload":{}"#, fails: "BadTopic"),
        job("hostile-crlf-push-type", with(#""push_type":"alert\r\n\#(forgedLine)""#), fails: "InvalidPushType"),
        job("hostile-escape-credential", with(#""credential":"\u001b[2J""#), fails: JobError.invalidField),
        job("hostile-nul-apns-id", with(#""apns_id":"\u0000""#), fails: "BadMessageId"),
        job("hostile-escaped-controls-in-payload", #""device_token":"\#(token)","topic":"com.example.app","payload":{"aps":{"alert":"bell\u0007 nul\u0000"}}"#),
    ]

    /// What a forged log line would start with; the scenario checks no line of the worker's log does.
    static let forgedLine = "2026-11-23T00:00:00Z critical forged log line"

    static let nesting: [FaultJob] = [
        job("hostile-deep-payload", #""device_token":"\#(token)","topic":"com.example.app","payload":{"d":\#(long(100, "["))\#(long(100, "]"))}"#, fails: JobError.invalidJSON),
        job("hostile-nested-60", #""device_token":"\#(token)","topic":"com.example.app","payload":{"aps":{"alert":"deep"},"d":\#(long(60, "["))\#(long(60, "]"))}"#),
        job("hostile-million-brackets", with(#""x":\#(long(1_000_000, "["))"#), fails: JobError.invalidJSON),
    ]

    static let numbers: [FaultJob] = [
        job("hostile-priority-1e400", with(#""priority":1e400"#), fails: JobError.invalidJSON),
        job("hostile-priority-20-digits", with(#""priority":99999999999999999999"#), fails: JobError.invalidField),
        job("hostile-expiration-1e308", with(#""expiration":1e308"#), fails: JobError.invalidField),
        job("hostile-deadline-1e300", with(#""deadline":1e300"#), fails: JobError.invalidField),
        unanswerable("id-20-digits", Array(#"{"id":99999999999999999999,\#(valid)}"#.utf8)),
        job("hostile-badge-1e308", #""device_token":"\#(token)","topic":"com.example.app","payload":{"aps":{"badge":1e308}}"#),
    ]

    static let wrongTypes: [FaultJob] = [
        unanswerable("id-array", Array(#"{"id":[1],\#(valid)}"#.utf8)),
        job("hostile-token-number", #""device_token":12,"topic":"com.example.app","payload":{}"#, fails: JobError.invalidField),
        job("hostile-payload-string", #""device_token":"\#(token)","topic":"com.example.app","payload":"hi""#, fails: JobError.invalidField),
        job("hostile-priority-string", with(#""priority":"10""#), fails: JobError.invalidField),
        job("hostile-topic-null", #""device_token":"\#(token)","topic":null,"payload":{}"#, fails: JobError.missingField),
        unanswerable("array-body", Array("[\"hostile\"]".utf8)),
        unanswerable("true-body", Array("true".utf8)),
        unanswerable("empty-body", []),
        unanswerable("empty-object", Array("{}".utf8)),
    ]

    static let badUTF8: [FaultJob] = {
        let alert = Array(#"{"id":"hostile-bad-utf8-alert",\#(valid.dropLast(4))"#.utf8) + [0xC3, 0x28] + Array(#""}}}"#.utf8)
        let key = Array(#"{"id":"hostile-bad-utf8-key","#.utf8) + [0x22, 0xFF, 0x22] + Array(#":1,\#(valid)}"#.utf8)
        return [
            FaultJob(id: "hostile-bad-utf8-alert", body: alert, outcomes: [.failed(JobError.invalidJSON)], deadLetters: true),
            FaultJob(id: "hostile-bad-utf8-key", body: key, outcomes: [.failed(JobError.invalidJSON)], deadLetters: true),
            unanswerable("bad-utf8-start", [0xFF, 0xFE] + Array(#"{"id":"x"}"#.utf8)),
        ]
    }()

    static let large: [FaultJob] = {
        var random = SystemRandomNumberGenerator()
        let garbage = (0..<(5 << 20)).map { _ in UInt8.random(in: 0...255, using: &random) }
        return [
            job("hostile-3mib", with(#""trace":"\#(long(3 << 20))""#), fails: JobError.jobTooLarge),
            unanswerable("5mib-garbage", garbage),
        ]
    }()

    static let keys: [FaultJob] = [
        job("hostile-escaped-keys", #""device_t\u006fken":"\#(token)","topic":"com.example.app","pay\u006coad":{"aps":{"alert":"escaped"}}"#),
        job("hostile-escaped-duplicate-id", #""\u0069d":"other",\#(valid)"#, fails: JobError.invalidJSON),
        job("hostile-duplicate-token", with(#""device_token":"\#(token)""#), fails: JobError.invalidJSON),
        job("hostile-duplicate-payload", with(#""payload":{"aps":{}}"#), fails: JobError.invalidJSON),
        unanswerable("bom", [0xEF, 0xBB, 0xBF] + Array(#"{"id":"hostile-bom",\#(valid)}"#.utf8)),
    ]

    /// Properties only pika will write; each case's AMQP side is in hostile_publish.py.
    static let amqp: [FaultJob] = [
        FaultJob(
            id: String(decoding: [UInt8](repeating: 0xFF, count: 255), as: UTF8.self), body: Array("{\(valid)}".utf8),
            outcomes: [.failed(JobError.invalidField)], deadLetters: true, amqpCase: "bad-utf8-message-id"
        ),
        FaultJob(
            id: "bom-with-message-id", body: [0xEF, 0xBB, 0xBF] + Array("{\(valid)}".utf8),
            outcomes: [.failed(JobError.invalidJSON)], deadLetters: true, amqpCase: "bom-with-message-id"
        ),
        job("hostile-bad-utf8-reply-to", valid, amqpCase: "bad-utf8-reply-to"),
        job("hostile-bad-utf8-header-key", with(#""collapse_id":"\u0001""#), fails: "BadCollapseId", amqpCase: "bad-utf8-header-key"),
        job("hostile-bad-utf8-names", with(#""collapse_id":"\#(long(65))""#), fails: "BadCollapseId", amqpCase: "bad-utf8-names"),
        job("hostile-deep-headers-failing", with(#""push_type":"hologram""#), fails: "InvalidPushType", amqpCase: "deep-headers"),
        job("hostile-deep-headers", valid, amqpCase: "deep-headers"),
        job("hostile-forged-retry-attempt", valid, amqpCase: "forged-retry-attempt"),
        job("hostile-forged-published-at", valid, amqpCase: "forged-published-at"),
        job("hostile-cc-header", with(#""priority":7"#), fails: "BadPriority", amqpCase: "cc-header"),
        job("hostile-bytes-header", with(#""credential":"""#), fails: JobError.invalidField, amqpCase: "bytes-header"),
    ]
}
