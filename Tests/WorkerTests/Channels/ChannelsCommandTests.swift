import APNsClient
import Foundation
import MockAPNs
import Testing
import TestSupport

@Suite("apns-worker channels (a real process against the mock)", .io)
struct ChannelsCommandTests {
    static func run(_ harness: MockHarness, _ arguments: [String]) async throws -> (status: Int32, object: [String: Any]) {
        try await WorkerCommandLine.run(["channels"] + arguments + ["--bundle-id", "com.example.app"], against: harness)
    }

    @Test("create prints the new id; get, list and delete use it; a second get is refused with exit 1")
    func session() async throws {
        let harness = try await MockHarness.start()
        let created = try await Self.run(harness, ["create", "--policy", "1"])
        #expect(created.status == 0, "\(created.object)")
        #expect(created.object["http_status"] as? Int == 201)
        let id = try #require(created.object["channel_id"] as? String)
        let read = try await Self.run(harness, ["get", "--channel-id", id])
        #expect(read.object["message_storage_policy"] as? Int == 1)
        let list = try await Self.run(harness, ["list"])
        #expect(list.object["channels"] as? [String] == [id])
        let deleted = try await Self.run(harness, ["delete", "--channel-id", id])
        #expect(deleted.status == 0 && deleted.object["http_status"] as? Int == 204)
        let again = try await Self.run(harness, ["get", "--channel-id", id])
        #expect(again.status == 1)
        #expect(again.object["reason"] as? String == "ChannelNotRegistered")
        #expect(again.object["apns_request_id"] is String)
        let invalid = try await Self.run(harness, ["get", "--channel-id", "not base64!"])
        #expect(invalid.status == 64)
        await harness.server.stop()
    }
}
