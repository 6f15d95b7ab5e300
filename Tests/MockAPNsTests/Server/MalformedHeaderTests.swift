import APNsClient
import Foundation
import APNsCore
import Testing
import TestSupport
@testable import MockAPNs

@Suite("Mock APNs: a malformed header ends the connection, as the strictest servers do", .io)
struct MalformedHeaderTests {
    @Test("CR LF in a header value draws GOAWAY(PROTOCOL_ERROR), and the recorder counts it")
    func goAwayOnCRLF() async throws {
        let mock = try await MockHarness.start()
        let body = try TemporaryFile.write(#"{"aps":{}}"#, mode: 0o600)
        // nghttp (Debian's nghttp2-client) sends header values as given; our own client refuses to.
        let output = try await ProcessRun.run("/usr/bin/nghttp", [
            "-nv", "-H", "apns-collapse-id: a\r\nb", "-H", "apns-topic: com.example.app", "-d", body,
            "https://127.0.0.1:\(mock.endpoint.port)/3/device/\(String(repeating: "ab", count: 32))",
        ]).output
        #expect(output.contains("recv GOAWAY"), "\(output)")
        #expect(output.contains("PROTOCOL_ERROR"))
        #expect(mock.server.recorder.snapshot.malformedRequests == 1)
        #expect(mock.server.recorder.snapshot.requests == 0, "the request was never served")
        await mock.server.stop()
    }
}
