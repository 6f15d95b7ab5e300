import Testing
import TestSupport
@testable import AMQP

/// `close()` while a declaration is on the wire: the broker ignores every call after
/// `connection.close`, so the calls still waiting must be answered by the client itself.
@Suite("AMQP client: a close during a declaration (real RabbitMQ)", .io)
struct AMQPCloseDuringCallTests {
    @Test("a declaration of many queues cut short by close() ends with an error naming a queue, and does not wait forever")
    func closeMidDeclaration() async throws {
        let client = try await TestBroker.connectedClient()
        let observer = try await TestBroker.connectedClient()
        // Expiring: what was declared before the close goes away by itself. Durable: the 4.0 test node
        // refuses transient queues that are not exclusive, as 4.x will by default.
        let queues = (0..<2_000).map { AMQPQueueDeclaration(name: TestBroker.uniqueName("closing-\($0)"), arguments: ["x-expires": .int(10_000)]) }
        let declaring = PolledTask { try await client.declare(queues: queues) }
        // The request is on the wire (its first queue exists) before the close: the close comes
        // between its calls, not before it starts.
        try await Condition.wait("the first queue declared", asking: {
            guard declaring.result == nil else { return true }
            return (try? await observer.checkQueue(queues[0].name)) != nil
        })
        if case .failure(let error)? = declaring.result {
            Issue.record("the declaration failed before the close: \(error)")
        }
        await client.close()
        // Before, the call written after connection.close (or on the wire when close-ok came) never
        // had an answer, and the declaration never ended.
        try await Condition.wait("the declaration ended") { declaring.result != nil }
        guard case .failure(let failure)? = declaring.result else {
            Issue.record("all \(queues.count) queues were declared before the close: nothing was cut short")
            return
        }
        let error = try #require(failure as? AMQPError, "\(failure)")
        #expect(error.code == .notConnected, "\(error)")
        #expect(error.operation.hasPrefix("declare queue"), "ended by a call of its own, not before it started: \(error)")
        await observer.close()
    }
}
