import APNsClient
import Foundation
import MockAPNs
import Testing
import TestSupport

/// `apns-worker send` as a user runs it to check a key: a real process against the mock.
@Suite("apns-worker send (a real process against the mock)", .io)
struct SendCommandTests {
    static func run(_ harness: MockHarness, _ arguments: [String]) async throws -> (status: Int32, object: [String: Any]) {
        try await WorkerCommandLine.run(["send", "--topic", "com.example.app"] + arguments, against: harness)
    }

    static let liveToken = String(repeating: "ab", count: 32)

    @Test("an accepted push prints status delivered, as its result would say, and exits 0")
    func delivered() async throws {
        let harness = try await MockHarness.start()
        let sent = try await Self.run(harness, ["--device-token", Self.liveToken])
        #expect(sent.status == 0, "\(sent.object)")
        #expect(sent.object["status"] as? String == "delivered")
        #expect(sent.object["http_status"] as? Int == 200)
        await harness.server.stop()
    }

    @Test("a payload that is not a JSON object is refused locally with exit 64 and the job's code", arguments: [
        (#"{"aps":"#, "InvalidJSON"), ("hello", "InvalidJSON"), ("[1,2]", "InvalidField"),
    ])
    func payloadIsNotAJSONObject(payload: String, reason: String) async throws {
        let harness = try await MockHarness.start()
        let sent = try await Self.run(harness, ["--device-token", Self.liveToken, "--payload", payload])
        #expect(sent.status == 64, "\(sent.object)")
        #expect(sent.object["status"] as? String == "failed")
        #expect(sent.object["reason"] as? String == reason)
        #expect((sent.object["detail"] as? String)?.contains("--payload") == true, "\(sent.object)")
        #expect(harness.server.recorder.snapshot.requests == 0, "nothing reaches APNs")
        await harness.server.stop()
    }

    @Test("a bad device token is refused locally with its APNs code")
    func badDeviceToken() async throws {
        let harness = try await MockHarness.start()
        let sent = try await Self.run(harness, ["--device-token", "zz"])
        #expect(sent.status == 64)
        #expect(sent.object["reason"] as? String == "BadDeviceToken", "\(sent.object)")
        await harness.server.stop()
    }
}
