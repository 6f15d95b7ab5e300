import AMQP
import APNsCore
import Foundation
import Testing
@testable import Worker

@Suite("Multicast jobs: decoding")
struct MulticastDecodingTests {
    static func decode(_ json: String) -> Result<Job, JobError> {
        JobDecoder.decode(JobEnvelope(body: Array(json.utf8), messageID: nil, replyTo: nil, previousAttempts: 0, previousDeferrals: 0))
    }

    static let first = String(repeating: "a1", count: 32)
    static let second = String(repeating: "b2", count: 32)

    @Test("device_tokens: each valid token once, in order; repeats counted; bad entries answered on their own")
    func tokens() throws {
        let json = #"{"id":"m-1","topic":"com.example.app","payload":{"aps":{}},"device_tokens":["\#(Self.first)","\#(Self.second.uppercased())","\#(Self.first)","xyz",7]}"#
        let job = try Self.decode(json).get()
        let multicast = try #require(job.multicast)
        #expect(multicast.tokens.map(\.hexString) == [Self.first, Self.second])
        #expect(multicast.repeatedTokens == 1)
        #expect(multicast.invalidTokens.count == 2)
        #expect(multicast.invalidTokens[0].detail.contains("hexadecimal"))
        #expect(multicast.invalidTokens[1].detail.contains("must be a string"))
        #expect(multicast.resultStyle == .summary)
        #expect(job.request.apnsID == nil, "each token gets its own")
    }

    @Test("each token's apns-id comes from the job id and the token: stable, and distinct per token and per job")
    func derivedIDs() throws {
        let a = try DeviceToken(hex: Self.first), b = try DeviceToken(hex: Self.second)
        #expect(APNsID.derived(fromJobID: "j", token: a) == APNsID.derived(fromJobID: "j", token: a))
        #expect(APNsID.derived(fromJobID: "j", token: a) != APNsID.derived(fromJobID: "j", token: b))
        #expect(APNsID.derived(fromJobID: "j", token: a) != APNsID.derived(fromJobID: "k", token: a))
        #expect(APNsID.derived(fromJobID: "j", token: a) != APNsID.derived(fromJobID: "j"))
    }

    @Test("what a multicast job may not be, each with its own error", arguments: [
        (#""device_tokens":[],"#, "InvalidField", "is empty"),
        (#""device_tokens":"abcd","#, "InvalidField", "must be an array"),
        (#""device_tokens":["abcd"],"device_token":"abcd","#, "InvalidField", "together with"),
        (#""device_tokens":["abcd"],"apns_id":"9b0f8d6e-1b7c-4c2a-8f3e-2a1d0c9b8a7f","#, "InvalidField", "derived from the job id"),
        (#""device_tokens":["zz","x"],"#, "BadDeviceToken", "none of the 2"),
        (#""device_tokens":["abcd"],"results":"all","#, "InvalidField", "per_token"),
    ])
    func refusals(fields: String, code: String, detail: String) {
        let json = #"{"id":"m-2",\#(fields)"topic":"com.example.app","payload":{"aps":{}}}"#
        guard case .failure(let error) = Self.decode(json) else {
            Issue.record("accepted: \(json)")
            return
        }
        #expect(error.code == code)
        #expect(error.detail.contains(detail), "\(error.detail)")
        #expect(error.jobID == "m-2")
    }

    @Test("at most Multicast.maximumTokens tokens; exactly that many is fine")
    func limit() throws {
        func job(_ count: Int) -> String {
            let tokens = (0..<count).map { "\"\(String(format: "%064x", $0))\"" }.joined(separator: ",")
            return #"{"id":"m-3","topic":"com.example.app","payload":{"aps":{}},"device_tokens":[\#(tokens)],"results":"per_token"}"#
        }
        let full = try Self.decode(job(Multicast.maximumTokens)).get()
        #expect(full.multicast?.tokens.count == Multicast.maximumTokens)
        #expect(full.multicast?.resultStyle == .perToken)
        guard case .failure(let error) = Self.decode(job(Multicast.maximumTokens + 1)) else {
            Issue.record("accepted \(Multicast.maximumTokens + 1) tokens")
            return
        }
        #expect(error.detail.contains("at most \(Multicast.maximumTokens)"))
    }

    @Test("a retry copy holds only the given tokens, every other byte of the job unchanged")
    func retryCopy() throws {
        let json = #"{"id":"m-4","device_tokens":["\#(Self.first)","\#(Self.second)"],"topic":"com.example.app","payload":{"aps":{"alert":"x"}},"mine":1}"#
        var properties = AMQPProperties()
        properties.messageID = "m-4"
        let original = AMQPMessage(body: Array(json.utf8), properties: properties)
        let copy = MulticastBody.message(original, holding: [try DeviceToken(hex: Self.second)])
        #expect(String(decoding: copy.body, as: UTF8.self) == json.replacingOccurrences(of: "\"\(Self.first)\",", with: ""))
        #expect(copy.properties.messageID == "m-4")
        let again = try Self.decode(String(decoding: copy.body, as: UTF8.self)).get()
        #expect(again.multicast?.tokens.map(\.hexString) == [Self.second])
    }
}
