import APNsCore
import Testing
import TestSupport
@testable import APNsClient
@testable import MockAPNs

@Suite("Client ↔ mock over loopback: streams, back-pressure, connecting", .io)
struct ClientFlowControlTests {
    @Test("a token connection uses one stream until its first accepted push, then the server's limit")
    func streamRamp() async throws {
        let harness = try await MockHarness.start { $0.apns.maxConcurrentStreams = 7 }
        let client = APNsClient(configuration: MockHarness.clientConfiguration { $0.connectionsPerPool = 1 })
        defer { client.shutdown() }
        let credential = try harness.tokenCredential()
        _ = try await client.send(MockHarness.alert(), credential: credential, endpoint: harness.endpoint)
        // The SETTINGS raising the limit may trail the first answer by a moment.
        try await Condition.wait("the connection uses the server's 7 streams") {
            client.poolState(credential: credential, endpoint: harness.endpoint)?.limits == [7]
        }
    }

    @Test("before any push is accepted, concurrent callers wait for the single stream")
    func singleStreamFirst() async throws {
        let harness = try await MockHarness.start {
            $0.apns.maxConcurrentStreams = 100
            // Every answer is held until the test has read the line: the stream is freed on the
            // connection's loop the moment the answer arrives. A delay of a second held it before, and a
            // busy parallel run could poll after it.
            $0.faults.holdAfterRequests = 0
        }
        let client = APNsClient(configuration: MockHarness.clientConfiguration { $0.connectionsPerPool = 1 })
        defer { client.shutdown() }
        let credential = try harness.tokenCredential()
        async let results = sendMany(5, client: client, credential: credential, endpoint: harness.endpoint)
        try await Condition.wait("a request is at APNs, and every other caller in line") {
            guard let state = client.poolState(credential: credential, endpoint: harness.endpoint) else { return false }
            return state.inFlight > 0 && state.inFlight + state.waiting == 5
        }
        let state = try #require(client.poolState(credential: credential, endpoint: harness.endpoint))
        #expect(state.inFlight == 1)
        #expect(state.waiting == 4)
        harness.server.releaseHeldAnswers()
        #expect(try await results.allSatisfy { (try? $0.get().isAccepted) == true })
    }

    @Test("the client follows the server's SETTINGS back down after a rejection, on the same connection")
    func limitLowered() async throws {
        // Lowered to 3, not 1: a fresh token connection also starts at one stream, so 1 could not tell
        // a followed SETTINGS frame from a replaced connection or a client that starts over on rejection.
        let harness = try await MockHarness.start {
            $0.apns.maxConcurrentStreams = 50
            $0.apns.streamsAfterRejection = 3
        }
        let client = APNsClient(configuration: MockHarness.clientConfiguration { $0.connectionsPerPool = 1 })
        defer { client.shutdown() }
        let credential = try harness.tokenCredential()
        let limits = { client.poolState(credential: credential, endpoint: harness.endpoint)?.limits }
        _ = try await client.send(MockHarness.alert(), credential: credential, endpoint: harness.endpoint)
        try await Condition.wait("the server's 50 streams are used") { limits() == [50] }
        let rejected = try await client.send(
            MockHarness.alert(device: "bad0" + String(repeating: "0", count: 60)), credential: credential, endpoint: harness.endpoint)
        #expect(!rejected.isAccepted)
        try await Condition.wait("the connection follows the server down to 3 streams") { limits() == [3] }
        #expect(harness.server.recorder.snapshot.connectionsOpened == 1, "the same connection, not a new one")
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
        try await Condition.wait("the connection uses the server's 2 streams") {
            client.poolState(credential: credential, endpoint: harness.endpoint)?.limits == [2]
        }
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
            // that should be at APNs times out before it gets there, unprocessed like the others), and
            // stretched under ThreadSanitizer, where a handshake took longer than 2 s (all 3 unprocessed).
            $0.requestTimeout = TestTiming.milliseconds(2000)
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
        let started = ContinuousClock.now
        let error = await #expect(throws: APNsSendError.self) {
            try await client.send(MockHarness.alert(), credential: harness.tokenCredential(), endpoint: harness.endpoint)
        }
        #expect(error?.code == .connectFailed)
        #expect(error?.outcome == .notProcessed)
        // The pool keeps trying for its connections. With the 10 ms floor alone a fourth attempt would
        // come ~30 ms after the first; doubling from 100 ms with jitter down to half puts it at least
        // 50 + 100 + 200 ms later, however loaded the machine, with one exception load brings: the
        // pool wants two connections, and when the first attempt's failure is not known yet 10 ms
        // later (a busy loop), the second goes at the floor. So at least 10 + 100 + 200 ms (a full-suite
        // run measured 326 ms).
        try await Condition.wait("a fourth connection attempt") { client.statistics.snapshot.connectAttempts >= 4 }
        let elapsed = ContinuousClock.now - started
        #expect(elapsed >= .milliseconds(310), "4 attempts within \(elapsed)")
    }
}
