import APNsCore
import Testing
import TestSupport
@testable import APNsClient
@testable import MockAPNs

@Suite("Client ↔ mock over loopback: answers", .io)
struct ClientBasicsTests {
    @Test("a valid push with a token is accepted, with apns-id echoed and apns-unique-id in development")
    func accepted() async throws {
        let harness = try await MockHarness.start()
        let client = APNsClient(configuration: MockHarness.clientConfiguration())
        defer { client.shutdown() }
        let request = try MockHarness.alert()
        let response = try await client.send(request, credential: harness.tokenCredential(), endpoint: harness.endpoint)
        guard case .accepted(let acceptance) = response else { Issue.record("rejected: \(response)"); return }
        #expect(acceptance.apnsID == request.apnsID?.value)
        #expect(acceptance.uniqueID != nil)
        #expect(harness.server.recorder.snapshot.acceptedByAPNsID[request.apnsID!.value] == 1)
        await harness.server.stop()
    }

    @Test("a client certificate from PKCS#12 authenticates without a token")
    func certificate() async throws {
        let harness = try await MockHarness.start()
        let client = APNsClient(configuration: MockHarness.clientConfiguration())
        defer { client.shutdown() }
        let response = try await client.send(MockHarness.alert(), credential: harness.certificateCredential(), endpoint: harness.endpoint)
        #expect(response.isAccepted)
        await harness.server.stop()
    }

    @Test("rejections are values: BadDeviceToken, and 410 Unregistered with its timestamp")
    func rejections() async throws {
        let harness = try await MockHarness.start()
        let client = APNsClient(configuration: MockHarness.clientConfiguration())
        defer { client.shutdown() }
        let credential = try harness.tokenCredential()
        _ = try await client.send(MockHarness.alert(), credential: credential, endpoint: harness.endpoint)
        let bad = try await client.send(MockHarness.alert(device: "bad0" + String(repeating: "1", count: 60)), credential: credential, endpoint: harness.endpoint)
        #expect(bad.rejection?.reason == .badDeviceToken)
        #expect(bad.rejection?.status == 400)
        #expect(bad.rejection?.disposition == .permanent)
        let gone = try await client.send(MockHarness.alert(device: "dead" + String(repeating: "1", count: 60)), credential: credential, endpoint: harness.endpoint)
        #expect(gone.rejection?.reason == .unregistered)
        #expect(gone.rejection?.status == 410)
        #expect(gone.rejection?.timestampMilliseconds != nil)
        await harness.server.stop()
    }

    @Test("several teams and a certificate share one client, each on its own connections")
    func severalCredentials() async throws {
        let harness = try await MockHarness.start()
        let client = APNsClient(configuration: MockHarness.clientConfiguration())
        defer { client.shutdown() }
        let first = try harness.tokenCredential(keyID: "TESTKEY001")
        let second = try harness.tokenCredential(keyID: "TESTKEY002")
        let certificate = try harness.certificateCredential()
        try await withThrowingTaskGroup(of: Bool.self) { group in
            for index in 0..<60 {
                group.addTask {
                    switch index % 3 {
                    case 0: try await client.send(MockHarness.alert(), credential: first, endpoint: harness.endpoint).isAccepted
                    case 1: try await client.send(MockHarness.alert(topic: "com.example.other"), credential: second, endpoint: harness.endpoint).isAccepted
                    default: try await client.send(MockHarness.alert(), credential: certificate, endpoint: harness.endpoint).isAccepted
                    }
                }
            }
            for try await accepted in group { #expect(accepted) }
        }
        #expect(harness.server.recorder.snapshot.accepted == 60)
        for credential in [first, second, certificate] {
            #expect((client.poolState(credential: credential, endpoint: harness.endpoint)?.connections ?? 0) >= 1)
        }
        await harness.server.stop()
    }

    @Test("a key whose team does not match the token is a credential failure, answered once and not retried")
    func credentialFailure() async throws {
        let harness = try await MockHarness.start()
        let client = APNsClient(configuration: MockHarness.clientConfiguration())
        defer { client.shutdown() }
        // TESTKEY002 belongs to TEAMID0002; signing as TEAMID0001 makes APNs refuse the token.
        let key = try ES256PrivateKeyLoader.load("TESTKEY002")
        let source = ProviderTokenSource(signer: try ProviderTokenSigner(teamID: "TEAMID0001", keyID: "TESTKEY002", key: key), policy: try ProviderTokenPolicy(), clock: harness.clock)
        let response = try await client.send(MockHarness.alert(), credential: APNsCredential(name: "wrong-team", authentication: .token(source)), endpoint: harness.endpoint)
        #expect(response.rejection?.reason == .invalidProviderToken)
        #expect(response.rejection?.disposition == .credentialFailure)
        #expect(harness.server.recorder.snapshot.rejectedByReason["InvalidProviderToken"] == 1)
        await harness.server.stop()
    }
}

extension APNsResponse {
    var isAccepted: Bool {
        if case .accepted = self { return true }
        return false
    }

    var rejection: APNsRejection? {
        if case .rejected(let rejection) = self { return rejection }
        return nil
    }
}
