import Foundation
import Logging
import NIOConcurrencyHelpers
import Testing
import TestSupport
@testable import AMQP

/// A worker that starts before its broker: `connect(retryingFor:)` keeps trying, says why it cannot
/// connect in the kernel's words, and stops waiting when closed.
@Suite("AMQP client: the first connection (real RabbitMQ)", .io)
struct AMQPStartupTests {
    /// Log messages, for waiting on what the client says.
    final class Recorder: LogHandler, @unchecked Sendable {
        // @unchecked: every access to `messages` goes through the lock; metadata and level are set
        // once, before the logger is handed to the client.
        let messages = NIOLockedValueBox<[String]>([])
        var metadata: Logger.Metadata = [:]
        var logLevel: Logger.Level = .info
        subscript(metadataKey key: String) -> Logger.Metadata.Value? {
            get { metadata[key] }
            set { metadata[key] = newValue }
        }
        func log(event: LogEvent) {
            messages.withLockedValue { $0.append("\(event.message) \(event.metadata ?? [:])") }
        }
        func count(containing text: String) -> Int { messages.withLockedValue { $0.filter { $0.contains(text) }.count } }
    }

    func client(port: Int, recorder: Recorder) -> AMQPClient {
        var options = TestBroker.options()
        options.endpoints = [AMQPEndpoint(host: "127.0.0.1", port: port)]
        return AMQPClient(options: options, logger: Logger(label: "startup") { _ in recorder })
    }

    @Test("nothing listening: the error says the connection was refused, and by whom")
    func refusedInTheKernelsWords() async {
        let client = client(port: 1, recorder: Recorder())
        let error = await #expect(throws: AMQPError.self) { try await client.connect() }
        #expect(error?.message == "connection refused by 127.0.0.1:1", "\(String(describing: error))")
    }

    @Test("a broker that comes up later is connected to within the window")
    func brokerComesUpLater() async throws {
        let port = FreePort.pick()
        let recorder = Recorder()
        let client = client(port: port, recorder: recorder)
        let connecting = Task { try await client.connect(retryingFor: .seconds(60)) }
        try await Condition.wait("two failed rounds") { recorder.count(containing: "AMQP broker unreachable at start") >= 2 }
        #expect(recorder.count(containing: "connection refused by 127.0.0.1:\(port)") >= 2)
        let relay = try BrokerRelay(port: port, upstream: TestBroker.port)  // the broker "comes up"
        try await connecting.value
        #expect(client.generation == 1)
        await client.close()
        withExtendedLifetime(relay) {}
    }

    @Test("a broker that never comes: the window is tried to its end, and the error says how long")
    func windowUsedToItsEnd() async throws {
        let client = client(port: FreePort.pick(), recorder: Recorder())
        let started = ContinuousClock.now
        let error = await #expect(throws: AMQPError.self) { try await client.connect(retryingFor: .seconds(2)) }
        // Not a speed check: backoff once gave up when the next delay would not fit, at about half.
        #expect(ContinuousClock.now - started >= .milliseconds(1950), "gave up early")
        #expect(error?.message.hasSuffix("(still so after trying for 2.0 s: amqp.startup_timeout)") == true, "\(String(describing: error))")
    }

    @Test("close() ends the wait for a broker that never comes")
    func closeEndsTheWait() async throws {
        let recorder = Recorder()
        let client = client(port: FreePort.pick(), recorder: recorder)
        let connecting = Task { try await client.connect(retryingFor: .seconds(600)) }
        try await Condition.wait("a failed round") { recorder.count(containing: "AMQP broker unreachable at start") >= 1 }
        await client.close()
        let error = await #expect(throws: AMQPError.self) { try await connecting.value }
        #expect(error?.message.contains("closed while waiting for the broker") == true, "\(String(describing: error))")
    }
}
