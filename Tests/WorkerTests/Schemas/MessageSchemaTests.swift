import APNsCore
import Foundation
import Testing
import TestSupport
@testable import Worker

/// `schemas/job.schema.json` and `schemas/result.schema.json` against what they describe: the
/// documentation's examples, the results the worker encodes, the jobs its decoder accepts, and (in
/// `MessageSchemaTests+PublishExample.swift`) what a real worker publishes for `examples/python/publish_jobs.py`.
/// Validation is Python's jsonschema (draft 2020-12) through `validate.py`.
@Suite("Message schemas (validated by python3 jsonschema)", .io)
struct MessageSchemaTests {
    static let token = String(repeating: "ab", count: 32)

    // MARK: The schemas themselves

    @Test("each schema is a valid draft 2020-12 schema with an $id, a title and a description on every property", arguments: SchemaValidator.Schema.allCases)
    func schemaIsValid(schema: SchemaValidator.Schema) async throws {
        let outcome = try await SchemaValidator.validate([], against: schema)
        #expect(outcome.succeeded, "\(outcome.transcript)")
        let object = try SchemaValidator.load(schema)
        #expect(object["$schema"] as? String == "https://json-schema.org/draft/2020-12/schema")
        #expect((object["$id"] as? String)?.hasSuffix("/\(schema.rawValue).schema.json") == true)
        #expect((object["title"] as? String)?.isEmpty == false)
        #expect((object["description"] as? String)?.isEmpty == false)
        let properties = try #require(object["properties"] as? [String: [String: Any]])
        let undocumented = properties.filter { ($0.value["description"] as? String)?.isEmpty != false }.keys.sorted()
        #expect(undocumented.isEmpty, "properties without a description: \(undocumented)")
    }

    @Test("the result schema lists exactly the fields JobResult encodes, and requires exactly the non-optional ones")
    func resultSchemaMatchesJobResult() throws {
        var result = JobResult(id: "j", status: .rejected, attempts: 1, completedAt: Date(), worker: "w")
        result.apnsID = "6f1e2f4a-9c0b-8d3e-a5f7-0b1c2d3e4f50"
        result.apnsUniqueID = "u"
        result.httpStatus = 410
        result.reason = "Unregistered"
        result.detail = "d"
        result.timestamp = 1
        result.deviceToken = Self.token
        result.topic = "t"
        result.credential = "c"
        result.latencyMS = 1
        result.channelAction = "list"
        result.channelID = "c"
        result.requestID = "r"
        result.messageStoragePolicy = 1
        result.channels = ["c"]
        result.tokens = TokenCounts()
        result.failures = [TokenOutcome(deviceToken: Self.token, status: .rejected)]
        let everything = try #require(try JSONSerialization.jsonObject(with: Data(result.encoded())) as? [String: Any])
        let bare = JobResult(id: nil, status: .expired, attempts: 0, completedAt: Date(), worker: "w")
        let always = try #require(try JSONSerialization.jsonObject(with: Data(bare.encoded())) as? [String: Any])

        let schema = try SchemaValidator.load(.result)
        let properties = try #require(schema["properties"] as? [String: Any])
        #expect(Set(properties.keys) == Set(everything.keys))
        #expect(Set(try #require(schema["required"] as? [String])) == Set(always.keys))
        #expect(schema["additionalProperties"] as? Bool == false)
    }

    // MARK: Documentation

    @Test("every ```json example in the documentation validates: jobs against job.schema.json, results against result.schema.json", arguments: DocumentationExamples.files)
    func documentationExamples(file: String) async throws {
        let examples = try DocumentationExamples(file: file)
        #expect(examples.unreadable.isEmpty, "```json blocks that are not JSON: \(examples.unreadable)")
        for (schema, list) in [(SchemaValidator.Schema.job, examples.jobs), (.result, examples.results)] where !list.isEmpty {
            let outcome = try await SchemaValidator.validate(list.map(\.text), against: schema)
            #expect(outcome.succeeded, "\(schema) examples, in order: \(list.map(\.location))\n\(outcome.transcript)")
        }
    }

    @Test("the documentation has examples to check: the README's job, and in docs/messages.md jobs and a result of every status")
    func documentationHasExamples() throws {
        #expect(try DocumentationExamples(file: "README.md").jobs.count >= 1)
        let messages = try DocumentationExamples(file: "docs/messages.md")
        #expect(messages.jobs.count >= 1)
        let statuses = Set(messages.results.compactMap { $0.object["status"] as? String })
        #expect(statuses == Set(["delivered", "rejected", "failed", "expired", "partial"]))
    }

    // MARK: Results the worker encodes

    @Test("results the worker encodes validate, for every status and shape")
    func encodedResults() async throws {
        let completed = Date(timeIntervalSince1970: 1_795_242_600.123)
        func result(_ status: JobStatus, attempts: Int = 1, _ fill: (inout JobResult) -> Void) -> JobResult {
            var result = JobResult(id: "job-\(status)", status: status, attempts: attempts, completedAt: completed, worker: "worker-1")
            result.deviceToken = Self.token
            result.topic = "com.example.app"
            result.credential = "team-one"
            result.latencyMS = 37
            fill(&result)
            return result
        }
        let apnsID = APNsID.derived(fromJobID: "job").value
        let results = [
            result(.delivered) {
                $0.httpStatus = 200
                $0.apnsID = apnsID
                $0.apnsUniqueID = UUID().uuidString.lowercased()
            },
            result(.delivered, attempts: 2) {
                $0.httpStatus = 200
                $0.apnsID = apnsID
            },
            result(.rejected) {
                $0.httpStatus = 410
                $0.reason = "Unregistered"
                $0.timestamp = 1_700_000_000_000
                $0.apnsID = apnsID
            },
            result(.rejected) {
                $0.httpStatus = 400
                $0.reason = "BadDeviceToken"
                $0.apnsID = apnsID
            },
            result(.failed, attempts: 5) {
                $0.httpStatus = 503
                $0.reason = "ServiceUnavailable"
                $0.detail = "5 attempts; last: 503 ServiceUnavailable"
                $0.apnsID = apnsID
            },
            // Malformed: decoded as far as the id, never sent.
            result(.failed, attempts: 0) {
                $0.deviceToken = nil
                $0.topic = nil
                $0.credential = nil
                $0.reason = "InvalidField"
                $0.detail = #""priority" must be an integer, not a string"#
            },
            result(.expired, attempts: 2) {
                $0.detail = "503 ServiceUnavailable"
            },
            // Expired before any attempt.
            result(.expired, attempts: 0) {
                $0.detail = "deadline passed before sending"
            },
        ]
        #expect(Set(results.map(\.status)) == [.delivered, .rejected, .failed, .expired])
        let outcome = try await SchemaValidator.validate(results.map { $0.encoded() }, against: .result)
        #expect(outcome.succeeded, "\(outcome.transcript)")
    }

    // MARK: Jobs

    @Test("the integration tests' job bodies: the ones the worker decodes validate, the malformed ones do not", arguments: JobFactory.Kind.allCases)
    func jobFactoryBodies(kind: JobFactory.Kind) async throws {
        let body = String(decoding: kind.body(id: "kind-\(kind)"), as: UTF8.self)
        let outcome = try await SchemaValidator.validate(body, against: .job)
        switch kind {
        case .delivered, .otherTeam, .unregistered, .badToken:
            #expect(outcome.succeeded, "\(outcome.transcript)")
        // Valid as documents: the schema cannot count the payload's bytes, nor know which topics the
        // worker's credentials serve. The worker fails them with PayloadTooLarge and UnknownCredential.
        case .tooLarge, .unknownTopic:
            #expect(outcome.succeeded, "\(outcome.transcript)")
        case .notJSON, .wrongType:
            #expect(!outcome.succeeded, "a malformed job passed the schema:\n\(outcome.transcript)")
        }
    }

    /// Job bodies (each with an id) and whether they are well-formed; the schema and the decoder must agree.
    static let decoderCases: [(String, Bool)] = {
        let token = MessageSchemaTests.token
        let base = #""id":"j-1","device_token":"\#(token)","payload":{"aps":{"alert":"hi"}}"#
        return [
            (#"{\#(base),"topic":"com.example.app"}"#, true),
            (#"{"id":42,"device_token":"\#(token)","topic":"com.example.app","payload":{}}"#, true),
            (#"{"device_token":"\#(token)","topic":"com.example.app","payload":{}}"#, true),  // id from message_id
            (#"{"id":"j-1","device_token":"\#(token.uppercased())","topic":"com.example.app","payload":{"aps":{"alert":"hi"}}}"#, true),
            (#"{\#(base),"topic":"com.example.app.voip","push_type":"voip","priority":1,"expiration":0,"collapse_id":"c","apns_id":"6f1e2f4a-9c0b-8d3e-a5f7-0b1c2d3e4f50","credential":"team-one","environment":"development","deadline":1795242600.5}"#, true),
            (#"{\#(base),"topic":"com.example.app","push_type":null,"priority":null,"expiration":null,"collapse_id":null,"apns_id":null,"credential":null,"environment":null,"deadline":null}"#, true),
            (#"{\#(base),"topic":"com.example.app","x-trace":{"span":1}}"#, true),
            (#"{\#(base),"topic":"com.example.app","push_type":"background"}"#, true),
            (#"{\#(base),"topic":"com.example.app.push-type.liveactivity","push_type":"liveactivity","priority":5}"#, true),
            (#"{\#(base),"topic":"com.example.app","priority":7}"#, false),
            (#"{\#(base),"topic":"com.example.app","priority":"high"}"#, false),
            (#"{\#(base),"topic":"com.example.app","priority":1}"#, false),
            (#"{\#(base),"topic":"com.example.app","push_type":"background","priority":10}"#, false),
            (#"{\#(base),"topic":"com.example.app","push_type":"voip"}"#, false),
            (#"{\#(base),"topic":"com.example.app.voip"}"#, false),
            (#"{\#(base),"topic":"com.example.app","push_type":"banner"}"#, false),
            (#"{\#(base),"topic":""}"#, false),
            (#"{"id":"j-1","device_token":"\#(token)","payload":{}}"#, false),
            (#"{"id":"j-1","device_token":"abc","topic":"com.example.app","payload":{}}"#, false),
            (#"{"id":"j-1","device_token":"zz","topic":"com.example.app","payload":{}}"#, false),
            (#"{"id":"j-1","topic":"com.example.app","payload":{}}"#, false),
            (#"{"id":"j-1","device_token":"\#(token)","topic":"com.example.app"}"#, false),
            (#"{"id":"j-1","device_token":"\#(token)","topic":"com.example.app","payload":[1]}"#, false),
            (#"{\#(base),"topic":"com.example.app","apns_id":"6F1E2F4A-9C0B-8D3E-A5F7-0B1C2D3E4F50"}"#, false),
            (#"{\#(base),"topic":"com.example.app","collapse_id":"\#(String(repeating: "c", count: 65))"}"#, false),
            (#"{\#(base),"topic":"com.example.app","collapse_id":""}"#, false),
            (#"{\#(base),"topic":"com.example.app","expiration":-1}"#, false),
            (#"{\#(base),"topic":"com.example.app","environment":"staging"}"#, false),
            (#"{\#(base),"topic":"com.example.app","deadline":"soon"}"#, false),
            (#"{"id":"","device_token":"\#(token)","topic":"com.example.app","payload":{}}"#, false),
            (#"{"id":1.5,"device_token":"\#(token)","topic":"com.example.app","payload":{}}"#, false),
            // The limits that keep a value carriable as a header, a short string and a log field.
            (#"{"id":"\#(String(repeating: "i", count: 256))","device_token":"\#(token)","topic":"com.example.app","payload":{}}"#, false),
            (#"{"id":"a\r\nb","device_token":"\#(token)","topic":"com.example.app","payload":{}}"#, false),
            (#"{\#(base),"topic":"com.example app"}"#, false),
            (#"{\#(base),"topic":"com.example.app","collapse_id":"a\r\nb"}"#, false),
            (#"{\#(base),"topic":"com.example.app","collapse_id":" lead"}"#, false),
            (#"{\#(base),"topic":"com.example.app","collapse_id":"东京 update"}"#, true),
            (#"{\#(base),"topic":"com.example.app","credential":"a\u001b"}"#, false),
            (#"{\#(base),"topic":"com.example.app","deadline":1e300}"#, false),
        ]
    }()

    @Test("the job schema and the worker's JobDecoder agree on which bodies are well-formed", arguments: decoderCases)
    func schemaAgreesWithDecoder(body: String, wellFormed: Bool) async throws {
        let decoded = JobDecoder.decode(JobEnvelope(body: Array(body.utf8), messageID: "from-message-id"))
        let decoderAccepts = if case .success = decoded { true } else { false }
        #expect(decoderAccepts == wellFormed, "the decoder says \(decoded)")
        let outcome = try await SchemaValidator.validate(body, against: .job)
        #expect(outcome.succeeded == wellFormed, "\(outcome.transcript)")
    }

    // MARK: The validator really rejects

    @Test("documents that break a schema fail validation, naming the problem", arguments: [
        (SchemaValidator.Schema.result, #"{"status":"delivered","http_status":200,"apns_id":"6f1e2f4a-9c0b-8d3e-a5f7-0b1c2d3e4f50","attempts":1,"completed_at":"2026-11-21T06:30:00.123Z","worker":"w","colour":"blue"}"#, "'colour' was unexpected"),
        (.result, #"{"status":"rejected","attempts":1,"completed_at":"2026-11-21T06:30:00.123Z","worker":"w","http_status":410}"#, "'reason' is a required property"),
        (.result, #"{"status":"delivered","attempts":1,"completed_at":"2026-11-21T06:30:00.123Z","worker":"w","http_status":200}"#, "'apns_id' is a required property"),
        (.result, #"{"status":"failed","attempts":1,"completed_at":"2026-11-21T06:30:00.123Z","worker":"w","reason":"InvalidJSON"}"#, "'detail' is a required property"),
        (.result, #"{"status":"delivered","http_status":200,"apns_id":"6f1e2f4a-9c0b-8d3e-a5f7-0b1c2d3e4f50","attempts":1,"completed_at":"2026-11-21T06:30:00Z","worker":"w"}"#, "/completed_at"),
        (.job, #"{"id":"j","device_token":"abab","payload":{}}"#, "'topic' is a required property"),
        (.job, #"{"id":"j","device_token":"abab","topic":"com.example.app","payload":{},"priority":7}"#, "/priority: 7 is not one of"),
    ])
    func brokenDocumentsFail(schema: SchemaValidator.Schema, document: String, problem: String) async throws {
        let outcome = try await SchemaValidator.validate(document, against: schema)
        #expect(outcome.status == 1, "\(outcome.transcript)")
        #expect(outcome.errors.contains(problem), "\(outcome.transcript)")
    }
}
