import AMQP
import APNsCore
import Foundation
import MockAPNs
import Testing
import TestSupport
@testable import Worker
import WorkerConfiguration

@Suite("Broadcast channel jobs end to end (real RabbitMQ, mock APNs)", .serialized, .io)
struct ChannelJobFlowTests {
    static func job(_ id: String, _ fields: String) -> [UInt8] {
        Array(#"{"id":"\#(id)","bundle_id":"com.example.app",\#(fields)}"#.utf8)
    }

    /// Publishes one job and returns its result.
    static func run(_ harness: WorkerHarness, _ body: [UInt8], id: String) async throws -> JobResult {
        try await harness.publish([body])
        let results = try await harness.results(covering: [id])
        return try #require(results.first { $0.id == id })
    }

    @Test("create, read, list, broadcast, delete as jobs: each result carries APNs' answer")
    func lifecycle() async throws {
        let harness = try await WorkerHarness.make()
        let worker = try await harness.startWorker()
        let created = try await Self.run(harness, Self.job("c-1", #""channel_action":"create","message_storage_policy":1"#), id: "c-1")
        #expect(created.status == .delivered)
        #expect(created.httpStatus == 201)
        #expect(created.channelAction == "create")
        #expect(created.requestID == APNsID.derived(fromJobID: "c-1").value)
        let id = try #require(created.channelID)
        #expect(harness.mock.server.channels.channel(id, of: "com.example.app")?.policy == .mostRecentMessageStored)

        let read = try await Self.run(harness, Self.job("c-2", #""channel_action":"read","channel_id":"\#(id)""#), id: "c-2")
        #expect(read.messageStoragePolicy == 1 && read.channelID == id)
        let list = try await Self.run(harness, Self.job("c-3", #""channel_action":"list""#), id: "c-3")
        #expect(list.channels == [id])

        let payload = #""payload":{"aps":{"timestamp":1,"event":"update","content-state":{"score":"1-0"}}}"#
        let sent = try await Self.run(harness, Self.job("c-4", #""channel_id":"\#(id)","expiration":2000000000,\#(payload)"#), id: "c-4")
        #expect(sent.status == .delivered && sent.channelAction == "broadcast" && sent.channelID == id)
        #expect(harness.mock.server.channels.channel(id, of: "com.example.app")?.broadcasts == 1)

        let deleted = try await Self.run(harness, Self.job("c-5", #""channel_action":"delete","channel_id":"\#(id)""#), id: "c-5")
        #expect(deleted.status == .delivered && deleted.httpStatus == 204)
        let gone = try await Self.run(harness, Self.job("c-6", #""channel_id":"\#(id)",\#(payload)"#), id: "c-6")
        #expect(gone.status == .rejected)
        #expect(gone.reason == "ChannelNotRegistered")
        #expect(gone.routingKey == "result.rejected.ChannelNotRegistered")
        try await worker.stop()
        await harness.tearDown()
    }

    @Test("the broadcast rules: a no-storage channel takes only expiration 0; a 503 is retried with the same request id")
    func rules() async throws {
        let harness = try await WorkerHarness.make()
        let worker = try await harness.startWorker()
        let created = try await Self.run(harness, Self.job("r-1", #""channel_action":"create","message_storage_policy":0"#), id: "r-1")
        let id = try #require(created.channelID)
        let payload = #""payload":{"aps":{"event":"update"}}"#
        let stored = try await Self.run(harness, Self.job("r-2", #""channel_id":"\#(id)","expiration":2000000000,\#(payload)"#), id: "r-2")
        #expect(stored.status == .rejected && stored.reason == "BadExpirationDate")
        var faults = MockFaults()
        faults.forcedReason = "ServiceUnavailable"
        faults.forcedReasonCount = 1
        harness.mock.server.setFaults(faults)
        let retried = try await Self.run(harness, Self.job("r-3", #""channel_id":"\#(id)","expiration":0,\#(payload)"#), id: "r-3")
        #expect(retried.status == .delivered && retried.attempts == 2)
        #expect(retried.requestID == APNsID.derived(fromJobID: "r-3").value)
        let malformed = try await Self.run(harness, Self.job("r-4", #""channel_action":"create","message_storage_policy":7"#), id: "r-4")
        #expect(malformed.status == .failed && malformed.reason == "InvalidField")
        let badID = try await Self.run(harness, Self.job("r-5", #""channel_id":"not base64!",\#(payload)"#), id: "r-5")
        #expect(badID.status == .failed && badID.reason == "BadChannelId")
        try await worker.stop()
        await harness.tearDown()
    }
}
