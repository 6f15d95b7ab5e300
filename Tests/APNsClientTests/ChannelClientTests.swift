import APNsCore
import Foundation
import Testing
import TestSupport
@testable import APNsClient
@testable import MockAPNs

@Suite("Broadcast channels: client ↔ mock over loopback", .io)
struct ChannelClientTests {
    static func request(_ operation: ChannelRequest.Operation, bundleID: String = "com.example.app") throws -> ChannelRequest {
        try ChannelRequest(bundleID: bundleID, operation: operation, requestID: APNsID.random())
    }

    static func accepted(_ response: APNsResponse) -> APNsAcceptance? {
        if case .accepted(let acceptance) = response { acceptance } else { nil }
    }

    static func reason(_ response: APNsResponse) -> String? {
        if case .rejected(let rejection) = response { rejection.reason.name } else { nil }
    }

    @Test("create, read, list, broadcast, delete: each answered as Apple's reference says, the request id echoed")
    func lifecycle() async throws {
        let harness = try await MockHarness.start()
        let client = APNsClient(configuration: MockHarness.clientConfiguration())
        defer { client.shutdown() }
        let credential = try harness.tokenCredential()
        let create = try Self.request(.create(.mostRecentMessageStored))
        let created = try #require(Self.accepted(try await client.send(create, credential: credential, endpoint: harness.endpoint)))
        #expect(created.status == 201)
        #expect(created.requestID == create.requestID?.value)
        let id = try ChannelID(try #require(created.channelID))

        let read = try #require(Self.accepted(try await client.send(try Self.request(.read(id)), credential: credential, endpoint: harness.endpoint)))
        #expect(read.status == 200)
        #expect(String(decoding: read.body, as: UTF8.self) == #"{"message-storage-policy":1,"push-type":"LiveActivity"}"#)

        let list = try #require(Self.accepted(try await client.send(try Self.request(.list), credential: credential, endpoint: harness.endpoint)))
        #expect(String(decoding: list.body, as: UTF8.self) == "{\"channels\":[\"\(id.value)\"]}")

        let payload = Array(#"{"aps":{"timestamp":1,"event":"update","content-state":{"score":"2-1"}}}"#.utf8)
        let broadcast = try ChannelRequest.Broadcast(channelID: id, expiration: .at(epochSeconds: 2_000_000_000), payload: payload)
        let sent = try #require(Self.accepted(try await client.send(try Self.request(.broadcast(broadcast)), credential: credential, endpoint: harness.endpoint)))
        #expect(sent.status == 200 && sent.requestID != nil)
        #expect(harness.server.channels.channel(id.value, of: "com.example.app")?.broadcasts == 1)
        #expect(harness.server.channels.channel(id.value, of: "com.example.app")?.storedPayload == payload)

        let deleted = try #require(Self.accepted(try await client.send(try Self.request(.delete(id)), credential: credential, endpoint: harness.endpoint)))
        #expect(deleted.status == 204)
        let gone = try await client.send(try Self.request(.read(id)), credential: credential, endpoint: harness.endpoint)
        #expect(Self.reason(gone) == "ChannelNotRegistered")
        await harness.server.stop()
    }

    @Test("the broadcast reasons: a no-storage channel takes only expiration 0; unknown channel; feature off; another team's app")
    func refusals() async throws {
        let harness = try await MockHarness.start()
        let client = APNsClient(configuration: MockHarness.clientConfiguration())
        defer { client.shutdown() }
        let credential = try harness.tokenCredential()
        func send(_ request: ChannelRequest) async throws -> APNsResponse {
            try await client.send(request, credential: credential, endpoint: harness.endpoint)
        }
        let created = try #require(Self.accepted(try await send(try Self.request(.create(.noMessageStored)))))
        let id = try ChannelID(try #require(created.channelID))
        let payload = Array(#"{"aps":{"event":"update"}}"#.utf8)
        let stored = try ChannelRequest.Broadcast(channelID: id, expiration: .at(epochSeconds: 2_000_000_000), payload: payload)
        #expect(Self.reason(try await send(try Self.request(.broadcast(stored)))) == "BadExpirationDate")
        let now = try ChannelRequest.Broadcast(channelID: id, expiration: .immediately, payload: payload)
        #expect(Self.accepted(try await send(try Self.request(.broadcast(now)))) != nil)
        let unknown = try ChannelRequest.Broadcast(channelID: ChannelID("bm90LWEtY2hhbm5lbA=="), payload: payload)
        #expect(Self.reason(try await send(try Self.request(.broadcast(unknown)))) == "ChannelNotRegistered")
        #expect(Self.reason(try await send(try Self.request(.create(.noMessageStored), bundleID: "com.example.nobroadcast"))) == "FeatureNotEnabled")
        #expect(Self.reason(try await send(try Self.request(.list, bundleID: "com.example.other"))) == "TopicMismatch")
        await harness.server.stop()
    }

    @Test("at most the configured number of channels per app: one more is CannotCreateChannelConfig")
    func channelLimit() async throws {
        let harness = try await MockHarness.start { $0.apns.maximumChannelsPerApp = 3 }
        let client = APNsClient(configuration: MockHarness.clientConfiguration())
        defer { client.shutdown() }
        let credential = try harness.tokenCredential()
        for _ in 0..<3 {
            #expect(Self.accepted(try await client.send(try Self.request(.create(.noMessageStored)), credential: credential, endpoint: harness.endpoint)) != nil)
        }
        let refused = try await client.send(try Self.request(.create(.noMessageStored)), credential: credential, endpoint: harness.endpoint)
        #expect(Self.reason(refused) == "CannotCreateChannelConfig")
        guard case .rejected(let rejection) = refused else { return }
        #expect(rejection.status == 400 && rejection.requestID != nil)
        #expect(Disposition(reason: rejection.reason, status: rejection.status) == .permanent)
        await harness.server.stop()
    }
}
