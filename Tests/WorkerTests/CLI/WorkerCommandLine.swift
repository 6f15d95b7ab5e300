import APNsCore
import APNsClient
import Foundation
import TestSupport

/// `apns-worker` as a process, for the tests of its commands: the binary built next to the test
/// bundle, pointed at a mock with a token credential, and the one JSON object it prints.
enum WorkerCommandLine {
    /// The binary built next to the test bundle, or `APNS_WORKER_BINARY`: the fault tier runs a
    /// release build that way (`APNS_FAULTS_WORKER=release`), which alone is linked with jemalloc.
    static let binary = ProcessInfo.processInfo.environment["APNS_WORKER_BINARY"]
        ?? URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("apns-worker").path

    /// Runs `apns-worker ARGUMENTS…` with team one's key, the mock's address and the test CA, and reads
    /// the JSON object it printed (or keeps the output as `output` when it is not one).
    static func run(_ arguments: [String], against harness: MockHarness) async throws -> (status: Int32, object: [String: Any]) {
        let credential = [
            "--key-file", try Fixtures.privateCopy(of: "keys/AuthKey_TESTKEY001.p8"), "--key-id", "TESTKEY001", "--team-id", "TEAMID0001",
            "--endpoint", "localhost:\(harness.endpoint.port)", "--ca-file", Fixtures.path("tls/ca.pem"),
        ]
        let run = try await ProcessRun.run(binary, arguments + credential)
        let object = (try? JSONSerialization.jsonObject(with: Data(run.output.utf8))) as? [String: Any] ?? ["output": run.output]
        return (run.status, object)
    }
}
