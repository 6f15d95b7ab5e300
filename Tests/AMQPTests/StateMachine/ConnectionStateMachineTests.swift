import APNsCore
import Testing
import TestSupport
@testable import AMQP

/// The AMQP client's decisions without a socket: connecting and reconnecting across nodes, confirms and
/// publish batches across a lost connection, the consumer across connections, acks, closing.
@Suite("AMQP connection state machine (no I/O)")
struct ConnectionStateMachineTests {
    typealias Machine = ConnectionStateMachine
    static let start = ContinuousClock.now

    static func machine(endpoints: Int = 1) -> Machine {
        Machine(endpointCount: endpoints, reconnectBackoff: ReconnectBackoff(initial: .milliseconds(100), maximum: .seconds(1)), random: SeededGenerator(seed: 7))
    }

    /// A machine connected (generation 1) with a running consumer tagged "c1".
    static func consuming() -> Machine {
        var machine = machine()
        _ = machine.connected(now: start)
        _ = machine.consumeRequested(queues: [Self.jobs])
        _ = machine.consumerStarted(tags: ["jobs": "c1"])
        return machine
    }

    static let jobs = AMQPConsumedQueue(name: "jobs", prefetch: 10)

    static let lost = AMQPError(.connectionLost, operation: "read", message: "the broker closed the socket")

    static func unknown(_ action: ConnectionAction) -> Bool {
        if case .resumePublish(_, .failure(let error)) = action { return error.code == .connectionLost }
        return false
    }

    @Test("a lost connection plans a reconnect on the next node, later the more attempts fail")
    func reconnecting() {
        var machine = Self.machine(endpoints: 3)
        _ = machine.connected(now: Self.start)
        #expect(machine.generation == 1 && machine.isConnected)
        #expect(machine.connectionFailed(Self.lost, now: Self.start) == [.closeConnection])
        #expect(!machine.isConnected)
        guard case .down(let due?) = machine.link else { Issue.record("no reconnect planned"); return }
        #expect(due > Self.start && due <= Self.start + .milliseconds(100))
        #expect(machine.tick(now: Self.start) == [], "not yet due")
        #expect(machine.tick(now: due) == [.open(endpointIndex: 1)], "the node that failed is tried last")
        _ = machine.openFailed(Self.lost, now: due)
        guard case .down(let second?) = machine.link else { Issue.record("no second attempt"); return }
        #expect(second - due <= .milliseconds(200) && second - due >= .milliseconds(100), "the delay doubles")
        #expect(machine.tick(now: second) == [.open(endpointIndex: 2)], "after two failures the next node")
        _ = machine.connected(now: second)
        #expect(machine.generation == 2)
        #expect(machine.reconnectBackoff.failedAttempts == 0)
    }

    @Test("publishes: written while connected, refused while down or for another connection")
    func publishing() {
        var machine = Self.machine()
        #expect(Self.unknown(machine.publishRequested(1, generation: nil)[0]) == false)
        guard case .resumePublish(1, .failure(let down)) = machine.publishRequested(1, generation: nil)[0] else { Issue.record("sent while down"); return }
        #expect(down.code == .notConnected)
        _ = machine.connected(now: Self.start)
        #expect(machine.publishRequested(2, generation: 1) == [.send(2, sequence: 1)])
        guard case .resumePublish(3, .failure(let gone)) = machine.publishRequested(3, generation: 7)[0] else { Issue.record("sent for a gone connection"); return }
        #expect(gone.code == .notConnected)
        #expect(machine.confirmReceived(1, multiple: false, positive: true) == [.resumePublish(2, .success(.confirmed))])
        #expect(machine.publishRequested(4, generation: nil) == [.send(4, sequence: 2)])
        machine.returned(sequence: 2, replyCode: 312, replyText: "NO_ROUTE")
        #expect(machine.confirmReceived(2, multiple: true, positive: true) == [.resumePublish(4, .success(.returned(replyCode: 312, replyText: "NO_ROUTE")))])
        #expect(machine.publishRequested(5, generation: nil) == [.send(5, sequence: 3)])
        #expect(machine.confirmReceived(3, multiple: false, positive: false) == [.resumePublish(5, .success(.nacked))])
    }

    @Test("a reconnect during a publish: the publish waiting for its confirm fails as outcome unknown")
    func reconnectDuringPublish() {
        var machine = Self.machine()
        _ = machine.connected(now: Self.start)
        _ = machine.publishRequested(1, generation: nil)
        _ = machine.publishRequested(2, generation: nil)
        let actions = machine.connectionFailed(Self.lost, now: Self.start)
        #expect(actions.first == .closeConnection)
        #expect(actions.dropFirst().count == 2 && actions.dropFirst().allSatisfy(Self.unknown))
        #expect(machine.unconfirmedCount == 0)
        _ = machine.connected(now: Self.start + .seconds(1))
        #expect(machine.publishRequested(3, generation: nil) == [.send(3, sequence: 1)], "a new channel numbers from 1 again")
    }

    @Test("a reopen asked for the current connection closes it and plans a new one on the next node; one asked for an older connection does nothing")
    func reopenOnRequest() {
        var machine = Self.machine(endpoints: 3)
        _ = machine.connected(now: Self.start)
        _ = machine.publishRequested(1, generation: nil)
        #expect(machine.reopenRequested(generation: 2, reason: "nacked", now: Self.start) == [], "not this connection's generation")
        let actions = machine.reopenRequested(generation: 1, reason: "nacked", now: Self.start)
        #expect(actions.first == .closeConnection)
        #expect(actions.dropFirst().count == 1 && actions.dropFirst().allSatisfy(Self.unknown), "the publish in flight is outcome unknown")
        guard case .down(let due?) = machine.link else { Issue.record("no reconnect planned"); return }
        #expect(machine.tick(now: due) == [.open(endpointIndex: 1)])
        #expect(machine.reopenRequested(generation: 1, reason: "nacked", now: due) == [], "a second request about the same connection while down")
        _ = machine.connected(now: due)
        #expect(machine.reopenRequested(generation: 1, reason: "nacked", now: due) == [], "nor once the new one is up")
        #expect(machine.isConnected && machine.generation == 2)
    }

    @Test("a batch: its delivery is acked once every message is confirmed, and it resumes after the ack is written")
    func batchAcked() {
        var machine = Self.consuming()
        let accepted = machine.delivered(5, consumerTag: "c1")
        #expect(accepted == "jobs")
        #expect(machine.batchRequested(1, members: [10, 11], deliveryTag: 5, deliveryGeneration: 1) == [])
        _ = machine.publishRequested(10, generation: 1)
        _ = machine.publishRequested(11, generation: 1)
        #expect(machine.confirmReceived(1, multiple: false, positive: true) == [])
        #expect(machine.confirmReceived(2, multiple: false, positive: true) == [], "waits for the ack's flush")
        #expect(machine.flushSettlements() == [
            .sendAck(deliveryTag: 5, multiple: false),
            .resumeBatch(1, outcomes: [.success(.confirmed), .success(.confirmed)], acked: true),
        ])
        #expect(machine.flushSettlements() == [])
    }

    @Test("a batch with a returned, nacked or refused message resumes at once, un-acked")
    func batchNotAcked() {
        var machine = Self.consuming()
        _ = machine.delivered(5, consumerTag: "c1")
        _ = machine.batchRequested(1, members: [10, 11], deliveryTag: 5, deliveryGeneration: 1)
        _ = machine.publishRequested(10, generation: 1)
        let refused = AMQPError(.invalidArgument, operation: "publish", message: "cannot be encoded")
        #expect(machine.publishRefused(11, refused) == [])
        machine.returned(sequence: 1, replyCode: 312, replyText: "NO_ROUTE")
        #expect(machine.confirmReceived(1, multiple: false, positive: true) == [
            .resumeBatch(1, outcomes: [.success(.returned(replyCode: 312, replyText: "NO_ROUTE")), .failure(refused)], acked: false),
        ])
        #expect(machine.flushSettlements() == [])
    }

    @Test("a batch's outcomes come back in order, the confirmed ones among the others")
    func batchOutcomesInOrder() {
        let refused = AMQPError(.invalidArgument, operation: "publish", message: "cannot be encoded")
        let outcomes: [Result<AMQPPublishOutcome, AMQPError>] = [
            .success(.confirmed), .failure(refused), .success(.returned(replyCode: 312, replyText: "NO_ROUTE")), .success(.confirmed),
        ]
        #expect(AMQPBatchOutcome(outcomes: outcomes, acked: false).outcomes == outcomes)
        #expect(AMQPBatchOutcome(outcomes: [], acked: true).outcomes.isEmpty)
        #expect(AMQPBatchOutcome(outcomes: outcomes, acked: false) != AMQPBatchOutcome(outcomes: Array(outcomes.reversed()), acked: false))
    }

    @Test("a batch whose connection is lost before its ack is written resumes un-acked; one of an older connection is never acked")
    func batchAcrossReconnect() {
        var machine = Self.consuming()
        _ = machine.delivered(5, consumerTag: "c1")
        _ = machine.batchRequested(1, members: [10], deliveryTag: 5, deliveryGeneration: 1)
        _ = machine.publishRequested(10, generation: 1)
        _ = machine.confirmReceived(1, multiple: false, positive: true)
        let actions = machine.connectionFailed(Self.lost, now: Self.start)
        #expect(actions.contains(.resumeBatch(1, outcomes: [.success(.confirmed)], acked: false)))
        _ = machine.connected(now: Self.start + .seconds(1))
        _ = machine.consumerStarted(tags: ["jobs": "c2"])
        #expect(machine.batchRequested(2, members: [], deliveryTag: 5, deliveryGeneration: 1) == [.resumeBatch(2, outcomes: [], acked: false)])
    }

    @Test("acks of consecutive deliveries go out as one multiple ack; the rest one by one; a duplicate never")
    func coalescedAcks() {
        var machine = Self.consuming()
        for tag in 1...6 { _ = machine.delivered(UInt64(tag), consumerTag: "c1") }
        for tag in [2, 1, 3] { _ = machine.settleRequested(UInt64(tag), generation: 1, ack: true) }
        _ = machine.settleRequested(5, generation: 1, ack: true)
        #expect(machine.flushSettlements() == [.sendAck(deliveryTag: 3, multiple: true), .sendAck(deliveryTag: 5, multiple: false)])
        #expect(machine.settleRequested(4, generation: 1, ack: false) == [.sendReject(deliveryTag: 4, requeue: true)])
        _ = machine.settleRequested(6, generation: 1, ack: true)
        _ = machine.settleRequested(5, generation: 1, ack: true)
        #expect(machine.flushSettlements() == [.sendAck(deliveryTag: 6, multiple: false)], "5 was acked already")
        #expect(machine.settleRequested(7, generation: 0, ack: true) == [] && machine.flushSettlements() == [], "an older connection's tag is dropped")
    }

    @Test("the consumer is started again on every new connection, and retried with backoff when its queue is missing")
    func consumerAcrossConnections() {
        var machine = Self.machine()
        _ = machine.connected(now: Self.start)
        #expect(machine.consumeRequested(queues: [Self.jobs]) == [.startConsumer(queues: [Self.jobs])])
        #expect(machine.consumerStarted(tags: ["jobs": "c1"]) == [.answerConsume(nil)])
        #expect(machine.isConsuming)
        _ = machine.connectionFailed(Self.lost, now: Self.start)
        #expect(!machine.isConsuming)
        #expect(machine.connected(now: Self.start + .seconds(1)) == [.startConsumer(queues: [Self.jobs])])
        let missing = AMQPError(.brokerClosed(replyCode: 404), operation: "consume", message: "no queue")
        #expect(machine.consumerFailed(missing, connectionUsable: true, now: Self.start + .seconds(1)) == [])
        let due = machine.nextDeadline!
        #expect(machine.tick(now: due) == [.startConsumer(queues: [Self.jobs])])
        #expect(machine.consumerStarted(tags: ["jobs": "c2"]) == [], "no caller waits any more")
        #expect(machine.consumerCancelledByBroker(tag: "c2", now: due) == [])
        #expect(!machine.isConsuming && machine.nextDeadline != nil)
    }

    @Test("several queues: each keeps its prefetch, a broker cancel restarts only that queue, a close cancels them all")
    func partitionedConsumer() {
        var machine = Self.machine()
        _ = machine.connected(now: Self.start)
        let queues = AMQPConsumedQueue.equalShares(of: 500, among: ["jobs", "jobs.1", "jobs.2"])
        #expect(queues.map(\.prefetch) == [166, 166, 166], "500 ÷ 3, rounded down")
        #expect(machine.consumeRequested(queues: queues) == [.startConsumer(queues: queues)])
        #expect(machine.consumerStarted(tags: ["jobs": "c1", "jobs.1": "c2", "jobs.2": "c3"]) == [.answerConsume(nil)])
        #expect(machine.isConsuming)
        #expect(machine.consumerCancelledByBroker(tag: "c2", now: Self.start) == [])
        #expect(!machine.isConsuming)
        #expect(machine.tick(now: machine.nextDeadline!) == [.startConsumer(queues: [queues[1]])], "only the cancelled queue")
        _ = machine.consumerStarted(tags: ["jobs.1": "c4"])
        #expect(machine.isConsuming)
        #expect(machine.closeRequested(now: Self.start, timeout: .seconds(5)) == [.cancelConsumer(tags: ["c1", "c4", "c3"])], "in the queues' order")
        #expect(AMQPConsumedQueue.equalShares(of: 2, among: ["jobs", "jobs.1", "jobs.2"]).map(\.prefetch) == [1, 1, 1], "at least one each")
        var duplicate = Self.machine()
        _ = duplicate.connected(now: Self.start)
        let twice = [AMQPConsumedQueue(name: "a", prefetch: 1), AMQPConsumedQueue(name: "a", prefetch: 5)]
        guard case .answerConsume(let error?) = duplicate.consumeRequested(queues: twice).first else { Issue.record("a queue named twice was accepted"); return }
        #expect(error.code == .invalidArgument)
        guard case .answerConsume(let unlimited?) = duplicate.consumeRequested(queues: [AMQPConsumedQueue(name: "a", prefetch: 0)]).first else {
            Issue.record("a prefetch of 0 (no limit at the broker) was accepted"); return
        }
        #expect(unlimited.code == .invalidArgument)
    }

    @Test("deliveries name the queue whose consumer they came from; one from a consumer not running goes back")
    func deliveriesNameTheirQueue() {
        var machine = Self.machine()
        _ = machine.connected(now: Self.start)
        let queues = [AMQPConsumedQueue(name: "jobs", prefetch: 200), AMQPConsumedQueue(name: "jobs.urgent", prefetch: 20)]
        #expect(machine.consumeRequested(queues: queues) == [.startConsumer(queues: queues)], "each with its own prefetch")
        machine.consumerTagStarted(queue: "jobs.urgent", tag: "c2")
        #expect(machine.delivered(7, consumerTag: "c2") == "jobs.urgent", "taken while the other queue's consumer is still starting")
        _ = machine.consumerStarted(tags: ["jobs": "c1", "jobs.urgent": "c2"])
        #expect(machine.delivered(1, consumerTag: "c2") == "jobs.urgent")
        #expect(machine.delivered(2, consumerTag: "c1") == "jobs")
        #expect(machine.delivered(3, consumerTag: "c9") == nil, "no consumer of ours has that tag")
    }

    @Test("a consume() whose first start fails tells its caller, and leaves no consumer behind")
    func consumeFails() {
        var machine = Self.machine()
        _ = machine.connected(now: Self.start)
        _ = machine.consumeRequested(queues: [AMQPConsumedQueue(name: "gone", prefetch: 1)])
        let missing = AMQPError(.brokerClosed(replyCode: 404), operation: "consume", message: "no queue")
        #expect(machine.consumerFailed(missing, connectionUsable: true, now: Self.start) == [.answerConsume(missing)])
        #expect(machine.consumer == nil)
        guard case .answerConsume(let twice?) = machine.consumeRequested(queues: [AMQPConsumedQueue(name: "a", prefetch: 1)]).first, twice.code == .invalidArgument else {
            return  // started: fine, the first is gone
        }
        Issue.record("a second consumer was refused although the first is gone")
    }

    @Test("close: the consumer is cancelled first, confirms get until the deadline, acks go out before the connection closes")
    func closing() {
        var machine = Self.consuming()
        _ = machine.delivered(1, consumerTag: "c1")
        _ = machine.publishRequested(9, generation: nil)
        #expect(machine.closeRequested(now: Self.start, timeout: .seconds(5)) == [.cancelConsumer(tags: ["c1"])])
        #expect(machine.consumerCancelled() == [.finishDeliveries])
        _ = machine.settleRequested(1, generation: 1, ack: true)
        guard case .resumePublish(10, .failure) = machine.publishRequested(10, generation: nil)[0] else { Issue.record("published while closing"); return }
        #expect(machine.tick(now: Self.start + .seconds(1)) == [], "a confirm is still awaited")
        #expect(machine.confirmReceived(1, multiple: false, positive: true) == [.resumePublish(9, .success(.confirmed))])
        #expect(machine.tick(now: Self.start + .seconds(1)) == [.sendAck(deliveryTag: 1, multiple: false), .closeConnection, .finishClose])
    }

    @Test("close waits for the consumer's cancel to be confirmed, even with nothing left to confirm")
    func closeWaitsForCancel() {
        var machine = Self.consuming()
        #expect(machine.closeRequested(now: Self.start, timeout: .seconds(5)) == [.cancelConsumer(tags: ["c1"])])
        #expect(machine.tick(now: Self.start + .seconds(1)) == [], "the cancel is under way")
        #expect(machine.consumerCancelled() == [.finishDeliveries])
        #expect(machine.tick(now: Self.start + .seconds(1)) == [.closeConnection, .finishClose])
    }

    @Test("close with a confirm that never comes: at the deadline it fails as unknown")
    func closeDeadline() {
        var machine = Self.machine()
        _ = machine.connected(now: Self.start)
        _ = machine.publishRequested(1, generation: nil)
        _ = machine.closeRequested(now: Self.start, timeout: .seconds(5))
        let actions = machine.tick(now: Self.start + .seconds(5))
        #expect(actions.first == .closeConnection && Self.unknown(actions[1]) && actions.last == .finishClose)
    }

    @Test("a close finishes once: no later tick or event finishes it again, nor starts another")
    func closeFinishesOnce() {
        var machine = Self.consuming()
        _ = machine.closeRequested(now: Self.start, timeout: .seconds(5))
        _ = machine.consumerCancelled()
        #expect(machine.tick(now: Self.start + .seconds(1)) == [.closeConnection, .finishClose])
        // The driver runs the machine again when a consumer, handed its last deliveries while the close
        // finishes, publishes from inside the call: the close must not finish a second time inside it.
        #expect(machine.tick(now: Self.start + .seconds(1)) == [])
        #expect(machine.tick(now: Self.start + .seconds(10)) == [])
        #expect(machine.finishClose() == [])
        #expect(machine.closeRequested(now: Self.start + .seconds(10), timeout: .seconds(5)) == [])
        #expect(machine.nextDeadline == nil, "nothing is due once closed")
    }
}
