import MockAPNs
import Testing
import TestSupport
@testable import Worker
import WorkerConfiguration

/// A worker stopped while it starts: a SIGTERM (a graceful shutdown) during start-up is a clean exit.
@Suite("A worker stopped while it starts (real RabbitMQ through a relay, mock APNs)", .io)
struct WorkerStartupTests {
    @Test("a shutdown while the topology is being declared ends the worker without an error, before it consumes")
    func shutdownWhileDeclaring() async throws {
        let port = FreePort.pick()
        // The broker answers the connection's opening, then never sees the first declare: the worker
        // stays inside its declaration until something ends it.
        let relay = try BrokerRelay(port: port, upstream: TestBrokerPort.value, holding: .exchangeDeclare)
        let harness = try await WorkerHarness.make(setup: { $0.amqp.urls = ["amqp://guest:guest@127.0.0.1:\(port)/"] })
        let worker = try await harness.startWorker()
        try await relay.waitUntilHeld()

        // Before, nothing ended the declaration: the stop waited out the declare's own timeout and threw
        // it ("declare exchange … failed: request timed out"); with a close already on its way from a
        // shutdown during the connect, it threw "declare topology failed: the client is closed".
        await #expect(throws: Never.self) { try await worker.stop(within: .seconds(30)) }
        // The shutdown ended the declaration by closing the connection; a declaration left to run into
        // its own timeout fails the connection without connection.close.
        #expect(relay.heldClientClosed, "the worker's connection was not closed while its declaration was held")
        #expect(!worker.service.readiness().consuming)
        #expect(harness.mock.server.recorder.snapshot.accepted == 0)
        await harness.tearDown()
        withExtendedLifetime(relay) {}
    }
}
