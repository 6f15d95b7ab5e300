import APNsCore
import NIOCore
import NIOPosix
import Testing
import TestSupport
@testable import APNsClient
import MockAPNs

@Suite("Callers on the connection's event loop (EventLoopTaskExecutor), over loopback", .io)
struct ClientOnTheLoopTests {
    @Test("callers that prefer the connection's loop run there before and after each send, and every answer reaches its caller")
    func sendsWithoutAHop() async throws {
        let harness = try await MockHarness.start { $0.apns.maxConcurrentStreams = 20 }
        let loops = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        let loop = loops.next()
        let client = APNsClient(configuration: MockHarness.clientConfiguration { $0.connectionsPerPool = 1 }, eventLoopGroup: loop)
        let credential = try harness.tokenCredential()
        let executor = EventLoopTaskExecutor(loop)
        // 200 callers on 20 streams: most wait in the pool's line and are resumed by a release on the loop;
        // every tenth sends a token APNs rejects, so answers of both kinds come back inline.
        let outcomes = try await withThrowingTaskGroup(of: (onLoop: Bool, accepted: Bool, rejectedAsBad: Bool).self) { group in
            for index in 0..<200 {
                group.addTask(executorPreference: executor) {
                    let before = loop.inEventLoop
                    let request = try index % 10 == 0 ? MockHarness.alert(device: "bad0" + String(repeating: "0", count: 60)) : MockHarness.alert()
                    let response = try await client.send(request, credential: credential, endpoint: harness.endpoint)
                    let rejectedAsBad = if case .rejected(let rejection) = response { rejection.reason == .badDeviceToken } else { false }
                    return (before && loop.inEventLoop, response.isAccepted, rejectedAsBad)
                }
            }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        #expect(outcomes.count == 200)
        #expect(outcomes.allSatisfy { $0.onLoop }, "a caller left the loop: the executor did not keep it there")
        #expect(outcomes.filter(\.accepted).count == 180)
        #expect(outcomes.filter(\.rejectedAsBad).count == 20)
        #expect(harness.server.recorder.snapshot.connectionsOpened == 1)
        client.shutdown()
        try await loops.shutdownGracefully()
    }
}
