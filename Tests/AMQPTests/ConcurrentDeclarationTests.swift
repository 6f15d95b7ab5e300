import NIOConcurrencyHelpers
import Testing
@testable import AMQP

@Suite("Declarations that meet a concurrent declaration (no I/O)")
struct ConcurrentDeclarationTests {
    /// What RabbitMQ 3.10 answered the test suite's declaration while a worker declared the same queue.
    let midCommit = AMQPError(
        .brokerClosed(replyCode: 404), operation: "declare queue wt-0f75c492.retry.urgent.200ms",
        message: "channel closed by the broker: NOT_FOUND - home node 'apnsworker@localhost' of durable queue 'wt-0f75c492.retry.urgent.200ms' in vhost '/' is down or inaccessible"
    )
    let missingExchange = AMQPError(.brokerClosed(replyCode: 404), operation: "bind queue q to x", message: "channel closed by the broker: NOT_FOUND - no exchange 'x' in vhost '/'")

    @Test("a home node 'down or inaccessible' is tried again after each pause, and the declaration that then succeeds returns")
    func retriedUntilItSucceeds() async throws {
        let tries = NIOLockedValueBox(0)
        let slept = NIOLockedValueBox<[Duration]>([])
        let result = try await ConcurrentDeclaration.retrying(sleep: { pause in slept.withLockedValue { $0.append(pause) } }) {
            let attempt = tries.withLockedValue { $0 += 1; return $0 }
            if attempt < 3 { throw midCommit }
            return attempt
        }
        #expect(result == 3)
        #expect(slept.withLockedValue { $0 } == [.milliseconds(50), .milliseconds(100)])
    }

    @Test("a node that stays down: five tries, then the broker's answer is thrown")
    func givesUpAfterThePauses() async {
        let tries = NIOLockedValueBox(0)
        await #expect(throws: midCommit) {
            try await ConcurrentDeclaration.retrying(sleep: { _ in }) {
                tries.withLockedValue { $0 += 1 }
                throw midCommit
            }
        }
        #expect(tries.withLockedValue { $0 } == ConcurrentDeclaration.pauses.count + 1)
    }

    @Test("any other failure is thrown at once: a 404 for something missing, a 406, a lost connection")
    func otherFailuresAreNotRetried() async {
        let others = [missingExchange, AMQPError(.brokerClosed(replyCode: 406), operation: "declare queue q", message: "PRECONDITION_FAILED - inequivalent arg"), AMQPError(.connectionLost, operation: "declare queue q", message: "is down or inaccessible")]
        for failure in others {
            let tries = NIOLockedValueBox(0)
            await #expect(throws: failure) {
                try await ConcurrentDeclaration.retrying(sleep: { _ in }) {
                    tries.withLockedValue { $0 += 1 }
                    throw failure
                }
            }
            #expect(tries.withLockedValue { $0 } == 1, "\(failure)")
        }
    }
}
