import APNsCore
import Testing
import TestSupport
@testable import APNsClient
@testable import MockAPNs

@Suite("Client ↔ mock over loopback: streams, back-pressure, connecting")
struct ClientFlowControlTests {
    @Test("a token connection uses one stream until its first accepted push, then the server's limit")
    func streamRamp() async throws {
        let harness = try await MockHarness.start { $0.apns.maxConcurrentStreams = 7 }
        let client = APNsClient(configuration: MockHarness.clientConfiguration { $0.connectionsPerPool = 1 })
        defer { client.shutdown() }
        let credential = try harness.tokenCredential()
        _ = try await client.send(MockHarness.alert(), credential: credential, endpoint: harness.endpoint)
        // The SETTINGS raising the limit may trail the first answer by a moment.
        try await eventually { client.poolState(credential: credential, endpoint: harness.endpoint)?.limits == [7] }
        #expect(client.poolState(credential: credential, endpoint: harness.endpoint)?.limits == [7])
    }

    @Test("before any push is accepted, concurrent callers wait for the single stream")
    func singleStreamFirst() async throws {
        let harness = try await MockHarness.start {
            $0.apns.maxConcurrentStreams = 100
            $0.faults.latency = .fixed(milliseconds: 50)
        }
        let client = APNsClient(configuration: MockHarness.clientConfiguration { $0.connectionsPerPool = 1 })
        defer { client.shutdown() }
        let credential = try harness.tokenCredential()
        async let results = sendMany(5, client: client, credential: credential, endpoint: harness.endpoint)
        try await eventually { (client.poolState(credential: credential, endpoint: harness.endpoint)?.inFlight ?? 0) > 0 }
        let state = try #require(client.poolState(credential: credential, endpoint: harness.endpoint))
        #expect(state.inFlight == 1)
        #expect(state.waiting == 4)
        #expect(try await results.allSatisfy { (try? $0.get().isAccepted) == true })
    }

    @Test("the client follows the server back down to one stream after a rejection")
    func limitLowered() async throws {
        let harness = try await MockHarness.start {
            $0.apns.maxConcurrentStreams = 50
            $0.apns.dropStreamsToOneAfterRejection = true
        }
        let client = APNsClient(configuration: MockHarness.clientConfiguration { $0.connectionsPerPool = 1 })
        defer { client.shutdown() }
        let credential = try harness.tokenCredential()
        _ = try await client.send(MockHarness.alert(), credential: credential, endpoint: harness.endpoint)
        try await eventually { client.poolState(credential: credential, endpoint: harness.endpoint)?.limits == [50] }
        _ = try await client.send(MockHarness.alert(device: "bad0" + String(repeating: "0", count: 60)), credential: credential, endpoint: harness.endpoint)
        try await eventually { client.poolState(credential: credential, endpoint: harness.endpoint)?.limits == [1] }
        #expect(client.poolState(credential: credential, endpoint: harness.endpoint)?.limits == [1])
    }

    @Test("back-pressure: callers beyond the streams wait in a bounded line; the rest fail at once, unprocessed")
    func boundedWaiting() async throws {
        let harness = try await MockHarness.start {
            $0.apns.maxConcurrentStreams = 2
            $0.faults.latency = .fixed(milliseconds: 300)
        }
        let client = APNsClient(configuration: MockHarness.clientConfiguration {
            $0.connectionsPerPool = 1
            $0.maximumWaitingRequests = 5
        })
        defer { client.shutdown() }
        let credential = try harness.tokenCredential()
        _ = try await client.send(MockHarness.alert(), credential: credential, endpoint: harness.endpoint)
        try await eventually { client.poolState(credential: credential, endpoint: harness.endpoint)?.limits == [2] }
        let results = try await sendMany(20, client: client, credential: credential, endpoint: harness.endpoint)
        let overloaded = results.filter { if case .failure(let error) = $0 { error.code == .overloaded && error.outcome == .notProcessed } else { false } }
        let accepted = results.filter { (try? $0.get().isAccepted) == true }
        #expect(accepted.count == 7)
        #expect(overloaded.count == 13)
        #expect(harness.server.recorder.snapshot.accepted == 8)
    }

    @Test("a waiting caller gives up after the request timeout, unprocessed")
    func waitTimeout() async throws {
        let harness = try await MockHarness.start { $0.faults.stallEvery = 1 }
        let client = APNsClient(configuration: MockHarness.clientConfiguration {
            $0.connectionsPerPool = 1
            // Long enough for the first connection's handshake on a loaded machine (else the request
            // that should be at APNs times out before it gets there, unprocessed like the others).
            $0.requestTimeout = .seconds(2)
        })
        defer { client.shutdown() }
        let results = try await sendMany(3, client: client, credential: harness.tokenCredential(), endpoint: harness.endpoint)
        let errors = results.compactMap { if case .failure(let error) = $0 { error } else { nil } }
        #expect(errors.count == 3)
        #expect(errors.filter { $0.code == .timedOut && $0.outcome == .unknown }.count == 1)
        #expect(errors.filter { $0.code == .timedOut && $0.outcome == .notProcessed }.count == 2)
    }

    @Test("a server certificate the client does not trust fails as a TLS failure, unprocessed, credential-level")
    func untrustedServer() async throws {
        let harness = try await MockHarness.start()
        let client = APNsClient(configuration: MockHarness.clientConfiguration {
            $0.additionalTrustedCAFile = Fixtures.path("tls/untrusted-ca.pem")
        })
        defer { client.shutdown() }
        let error = await #expect(throws: APNsSendError.self) {
            try await client.send(MockHarness.alert(), credential: harness.tokenCredential(), endpoint: harness.endpoint)
        }
        #expect(error?.code == .tlsFailed)
        #expect(error?.outcome == .notProcessed)
        #expect(error?.disposition == .credentialFailure)
        #expect(harness.server.recorder.snapshot.requests == 0)
    }

    @Test("nothing listening: connect failure, unprocessed, and attempts back off instead of looping")
    func nothingListening() async throws {
        let client = APNsClient(configuration: MockHarness.clientConfiguration {
            $0.minimumConnectInterval = .milliseconds(10)
            $0.initialReconnectDelay = .milliseconds(100)
            $0.maximumReconnectDelay = .seconds(5)
        })
        defer { client.shutdown() }
        let harness = try await MockHarness.start()
        await harness.server.stop()
        let error = await #expect(throws: APNsSendError.self) {
            try await client.send(MockHarness.alert(), credential: harness.tokenCredential(), endpoint: harness.endpoint)
        }
        #expect(error?.code == .connectFailed)
        #expect(error?.outcome == .notProcessed)
        try await Task.sleep(for: .seconds(1))
        // The floor alone would allow ~100 attempts a second; doubling from 100 ms (with jitter down to
        // half) allows about eight, whatever the machine's load.
        let attempts = client.statistics.snapshot.connectAttempts
        #expect(attempts >= 2 && attempts <= 12, "\(attempts) attempts")
    }
}

/// Polls `condition` for up to two seconds.
func eventually(_ condition: () -> Bool) async throws {
    for _ in 0..<200 {
        if condition() { return }
        try await Task.sleep(for: .milliseconds(10))
    }
}
