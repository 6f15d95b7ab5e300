import APNsCore
import Foundation
import Testing
import TestSupport
@testable import APNsClient
@testable import MockAPNs

@Suite("Client ↔ mock over loopback: provider tokens", .io)
struct ClientTokenTests {
    @Test("a connection keeps its token for 49 minutes, refreshes at 50, and never trips the 20-minute rule")
    func refreshAtRefreshAge() async throws {
        let harness = try await MockHarness.start()
        let client = APNsClient(configuration: MockHarness.clientConfiguration { $0.connectionsPerPool = 1 })
        defer { client.shutdown() }
        let credential = try harness.tokenCredential()
        let start = harness.clock.now()
        for minutes in [0.0, 10, 19, 21, 30, 49] {
            harness.clock.set(start.addingTimeInterval(minutes * 60))
            #expect(try await client.send(MockHarness.alert(), credential: credential, endpoint: harness.endpoint).isAccepted)
        }
        #expect(client.statistics.snapshot.tokenRefreshes == 0)
        harness.clock.set(start.addingTimeInterval(50 * 60))
        #expect(try await client.send(MockHarness.alert(), credential: credential, endpoint: harness.endpoint).isAccepted)
        #expect(client.statistics.snapshot.tokenRefreshes == 1)
        harness.clock.set(start.addingTimeInterval(80 * 60))
        #expect(try await client.send(MockHarness.alert(), credential: credential, endpoint: harness.endpoint).isAccepted)
        #expect(client.statistics.snapshot.tokenRefreshes == 1)
        #expect(harness.server.recorder.snapshot.rejectedByReason.isEmpty)
    }

    @Test("ExpiredProviderToken is retried once, transparently, and the push is delivered")
    func expiredTokenRetried() async throws {
        let harness = try await MockHarness.start()
        let client = APNsClient(configuration: MockHarness.clientConfiguration())
        defer { client.shutdown() }
        let credential = try harness.tokenCredential()
        _ = try await client.send(MockHarness.alert(), credential: credential, endpoint: harness.endpoint)
        var faults = MockFaults()
        faults.forcedReason = "ExpiredProviderToken"
        faults.forcedReasonCount = 1
        harness.server.setFaults(faults)
        let request = try MockHarness.alert()
        #expect(try await client.send(request, credential: credential, endpoint: harness.endpoint).isAccepted)
        let recorded = harness.server.recorder.snapshot
        #expect(recorded.rejectedByReason["ExpiredProviderToken"] == 1)
        #expect(recorded.acceptedByAPNsID[request.apnsID!.value] == 1)
        #expect(recorded.rejectedByReason["TooManyProviderTokenUpdates"] == nil)
    }

    @Test("a token APNs keeps calling expired comes back as a rejection after a bounded number of tries")
    func expiredForever() async throws {
        let harness = try await MockHarness.start()
        let client = APNsClient(configuration: MockHarness.clientConfiguration())
        defer { client.shutdown() }
        var faults = MockFaults()
        faults.forcedReason = "ExpiredProviderToken"
        faults.forcedReasonCount = 1000
        harness.server.setFaults(faults)
        let response = try await client.send(MockHarness.alert(), credential: harness.tokenCredential(), endpoint: harness.endpoint)
        #expect(response.rejection?.reason == .expiredProviderToken)
        #expect((harness.server.recorder.snapshot.rejectedByReason["ExpiredProviderToken"] ?? 0) <= 2 * (client.configuration.maximumTransparentResends + 1))
    }

    @Test("TooManyProviderTokenUpdates retires the connection and the push goes out on a new one")
    func tooManyUpdates() async throws {
        let harness = try await MockHarness.start()
        let client = APNsClient(configuration: MockHarness.clientConfiguration { $0.connectionsPerPool = 1 })
        defer { client.shutdown() }
        let credential = try harness.tokenCredential()
        _ = try await client.send(MockHarness.alert(), credential: credential, endpoint: harness.endpoint)
        var faults = MockFaults()
        faults.forcedReason = "TooManyProviderTokenUpdates"
        faults.forcedReasonCount = 1
        harness.server.setFaults(faults)
        #expect(try await client.send(MockHarness.alert(), credential: credential, endpoint: harness.endpoint).isAccepted)
        #expect(client.statistics.snapshot.recycledByReason["TooManyProviderTokenUpdates"] == 1)
        #expect(client.statistics.snapshot.connectionsEstablished == 2)
    }

    @Test("the mock's own 20-minute rule: a client that changed tokens early would be refused (guard for the test above)")
    func mockEnforcesRule() async throws {
        let harness = try await MockHarness.start()
        let client = APNsClient(configuration: MockHarness.clientConfiguration { $0.connectionsPerPool = 1 })
        defer { client.shutdown() }
        // refresh age 20 minutes: the policy itself never changes earlier than 20 minutes.
        let credential = try harness.tokenCredential(refreshAge: 20 * 60)
        for _ in 0..<5 {
            #expect(try await client.send(MockHarness.alert(), credential: credential, endpoint: harness.endpoint).isAccepted)
            harness.clock.advance(by: 20 * 60)
        }
        #expect(harness.server.recorder.snapshot.rejectedByReason.isEmpty)
        #expect(client.statistics.snapshot.tokenRefreshes == 4)
    }
}
