import APNsCore
import Foundation
import Testing
@testable import Worker

@Suite("Decoding jobs")
struct JobDecoderTests {
    static let token = String(repeating: "ab", count: 32)

    func decode(_ json: String, messageID: String? = nil) -> Result<Job, JobError> {
        JobDecoder.decode(JobEnvelope(body: Array(json.utf8), messageID: messageID, replyTo: "rpc.queue", previousAttempts: 2))
    }

    func error(_ json: String, messageID: String? = nil) -> JobError? {
        if case .failure(let error) = decode(json, messageID: messageID) { return error }
        return nil
    }

    @Test("a full job decodes, its payload byte for byte as the producer wrote it")
    func fullJob() throws {
        let payload = #"{ "aps" : {"alert":"hi","badge":1.50}, "z":[1,{"a":"}"}], "k":"\u00e9\/" }"#
        let json = """
            {"id":"job-1","device_token":"\(Self.token)","topic":"com.example.app.voip","push_type":"voip","priority":5,
             "expiration":1800000000,"collapse_id":"c1","apns_id":"123e4567-e89b-42d3-a456-426614174000","payload":\(payload),
             "credential":"team-a","environment":"development","deadline":1900000000.5,"extra":{"ignored":true}}
            """
        let job = try decode(json).get()
        #expect(job.id == "job-1")
        #expect(job.request.payload == Array(payload.utf8))
        #expect(job.request.pushType == .voip)
        #expect(job.request.priority == .conservePower)
        #expect(job.request.expiration == .at(epochSeconds: 1_800_000_000))
        #expect(job.request.collapseID?.value == "c1")
        #expect(job.request.apnsID?.value == "123e4567-e89b-42d3-a456-426614174000")
        #expect(job.credentialName == "team-a")
        #expect(job.environment == .development)
        #expect(job.deadline == Date(timeIntervalSince1970: 1_900_000_000.5))
        #expect(job.replyTo == "rpc.queue")
        #expect(job.previousAttempts == 2)
    }

    @Test("defaults: alert, priority by type, apns-id derived from the job id (stable across redeliveries)")
    func defaults() throws {
        let json = #"{"id":"job-2","device_token":"\#(Self.token)","topic":"com.example.app","payload":{"aps":{}}}"#
        let first = try decode(json).get()
        let second = try decode(json).get()
        #expect(first.request.pushType == .alert)
        #expect(first.request.priority == .immediate)
        #expect(first.request.apnsID == second.request.apnsID)
        #expect(first.request.apnsID == APNsID.derived(fromJobID: "job-2"))
        #expect(first.request.apnsID != APNsID.derived(fromJobID: "job-3"))
        #expect(try APNsID(first.request.apnsID!.value) == first.request.apnsID)
    }

    @Test("the id may come from the AMQP message_id, or be a number")
    func identifiers() throws {
        #expect(try decode(#"{"device_token":"\#(Self.token)","topic":"t.app","payload":{}}"#, messageID: "m-9").get().id == "m-9")
        #expect(try decode(#"{"id":42,"device_token":"\#(Self.token)","topic":"t.app","payload":{}}"#).get().id == "42")
        #expect(error(#"{"device_token":"\#(Self.token)","topic":"t.app","payload":{}}"#)?.code == JobError.missingField)
    }

    @Test("malformed jobs get a specific code, and the id when one can be read", arguments: [
        ("not json", JobError.invalidJSON, nil as String?),
        ("[1,2]", JobError.invalidJSON, nil),
        (#"{"id":"a","topic":"t.app","payload":{}}"#, JobError.missingField, "a"),
        (#"{"id":"a","device_token":"\#(token)","payload":{}}"#, JobError.missingField, "a"),
        (#"{"id":"a","device_token":"\#(token)","topic":"t.app"}"#, JobError.missingField, "a"),
        (#"{"id":"a","device_token":"\#(token)","topic":"t.app","payload":"hi"}"#, JobError.invalidField, "a"),
        (#"{"id":"a","device_token":12,"topic":"t.app","payload":{}}"#, JobError.invalidField, "a"),
        (#"{"id":"a","device_token":"\#(token)","topic":"t.app","payload":{},"priority":"10"}"#, JobError.invalidField, "a"),
        (#"{"id":"a","device_token":"\#(token)","topic":"t.app","payload":{},"priority":true}"#, JobError.invalidField, "a"),
        (#"{"id":"a","device_token":"\#(token)","topic":"t.app","payload":{},"environment":"staging"}"#, JobError.invalidField, "a"),
        (#"{"id":"a","device_token":"xyz","topic":"t.app","payload":{}}"#, "BadDeviceToken", "a"),
        (#"{"id":"a","device_token":"\#(token)","topic":"t.app","payload":{},"push_type":"hologram"}"#, "InvalidPushType", "a"),
        (#"{"id":"a","device_token":"\#(token)","topic":"t.app","payload":{},"push_type":"voip"}"#, "BadTopic", "a"),
        (#"{"id":"a","device_token":"\#(token)","topic":"t.app","payload":{},"push_type":"background","priority":10}"#, "BadPriority", "a"),
        (#"{"id":"a","device_token":"\#(token)","topic":"t.app","payload":{},"priority":7}"#, "BadPriority", "a"),
        (#"{"id":"a","device_token":"\#(token)","topic":"t.app","payload":{},"collapse_id":"\#(String(repeating: "c", count: 65))"}"#, "BadCollapseId", "a"),
        (#"{"id":"a","device_token":"\#(token)","topic":"t.app","payload":{},"apns_id":"nope"}"#, "BadMessageId", "a"),
        (#"{"id":"a","device_token":"\#(token)","topic":"t.app","payload":{},"expiration":-1}"#, "BadExpirationDate", "a"),
    ])
    func malformed(json: String, code: String, id: String?) {
        let error = error(json)
        #expect(error?.code == code)
        #expect(error?.jobID == id)
    }

    @Test("a payload over 4096 bytes is PayloadTooLarge; a 1 MiB body is handled without trouble")
    func largePayloads() {
        let big = String(repeating: "x", count: 4100)
        #expect(error(#"{"id":"a","device_token":"\#(Self.token)","topic":"t.app","payload":{"b":"\#(big)"}}"#)?.code == "PayloadTooLarge")
        let huge = String(repeating: "y", count: 1 << 20)
        #expect(error(#"{"id":"a","device_token":"\#(Self.token)","topic":"t.app","payload":{"b":"\#(huge)"}}"#)?.code == "PayloadTooLarge")
    }

    @Test("errors about device tokens do not quote the token")
    func noTokenInErrors() {
        let bad = String(repeating: "ab", count: 32) + "zz"
        let error = error(#"{"id":"a","device_token":"\#(bad)","topic":"t.app","payload":{}}"#)
        #expect(error.map { !"\($0)".contains(bad) } == true)
    }
}
