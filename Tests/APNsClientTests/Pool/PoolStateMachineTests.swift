import APNsCore
import NIOCore
import Testing
import TestSupport
@testable import APNsClient

/// The pool's decisions without a connection: which connection takes a request, the line of waiting
/// callers, when connections open, and what a failure, a drain or a shutdown does to them.
@Suite("Connection pool state machine (no I/O)")
struct PoolStateMachineTests {
    typealias Machine = PoolStateMachine<SeededGenerator>
    static let start = NIODeadline.uptimeNanoseconds(1_000_000_000)

    static func machine(connections: Int = 2, waiters: Int = 3, timeout: TimeAmount = .seconds(1)) -> Machine {
        Machine(
            targetConnections: connections, maximumWaiters: waiters, requestTimeout: timeout,
            reconnect: ReconnectDelay(floor: .milliseconds(100), initial: .milliseconds(200), maximum: .seconds(5)),
            random: SeededGenerator(seed: 1)
        )
    }

    @Test("the first request waits and opens connections, spaced by the floor; ready connections serve the line")
    func firstRequest() {
        var machine = Self.machine()
        #expect(machine.acquire(1, now: Self.start) == .wait([.sweepWaitersAgain(in: .milliseconds(100)), .open(1), .checkConnectionsAgain(in: .milliseconds(100))]))
        #expect(machine.connectCheckDue(now: Self.start + .milliseconds(100)) == [.open(2)])
        #expect(machine.connectionReady(1, streamLimit: 1, now: Self.start + .milliseconds(100)) == [.serve(1, on: 1)])
        #expect(machine.acquire(2, now: Self.start) == .wait([]), "the only stream is taken; the sweep is armed already")
        #expect(machine.streamLimitChanged(1, to: 1000, now: Self.start + .milliseconds(100)) == [.serve(2, on: 1)])
        #expect(machine.acquire(3, now: Self.start) == .use(1))
        #expect(machine.streamsInUse == 3)
    }

    @Test("requests go to the connection with the most free streams")
    func bestConnection() {
        var machine = Self.ready(limits: [1: 10, 2: 10])
        let picks = (0..<6).map { id -> Int in
            guard case .use(let connection) = machine.acquire(UInt64(id), now: Self.start) else { return 0 }
            return connection
        }
        #expect(picks == [1, 2, 1, 2, 1, 2])
        _ = machine.release(2, now: Self.start)
        _ = machine.release(2, now: Self.start)
        #expect(machine.acquire(9, now: Self.start) == .use(2))
    }

    @Test("the fast path takes a free stream on the best connection, and declines when none is free or the pool is shut down")
    func freeStreamFastPath() {
        var machine = Self.ready(limits: [1: 1, 2: 2])
        #expect(machine.acquireFree() == 2)
        #expect(machine.acquireFree() == 1)
        #expect(machine.acquireFree() == 2)
        #expect(machine.acquireFree() == nil, "every stream is taken: the caller must wait in line")
        #expect(machine.streamsInUse == 3)
        _ = machine.release(1, now: Self.start)
        _ = machine.shutdown()
        #expect(machine.acquireFree() == nil, "a shut-down pool hands out nothing, even with a free stream")
    }

    @Test("urgent callers: a tenth of each connection's streams only they take, and a line served before the other")
    func urgentCallers() {
        var machine = Self.ready(limits: [1: 20])
        for id in 0..<18 { #expect(machine.acquire(UInt64(id), now: Self.start) == .use(1)) }
        #expect(machine.acquireFree() == nil, "18 of 20: the last two are kept for urgent callers")
        guard case .wait = machine.acquire(100, now: Self.start) else { Issue.record("a normal caller took a kept stream"); return }
        #expect(machine.acquireFree(urgent: true) == 1)
        #expect(machine.acquire(200, urgent: true, now: Self.start) == .use(1), "the second kept stream")
        guard case .wait = machine.acquire(201, urgent: true, now: Self.start) else { Issue.record("a 21st stream"); return }
        #expect(machine.acquireFree() == nil && machine.acquireFree(urgent: false) == nil)
        #expect(machine.release(1, now: Self.start) == [.serve(201, on: 1)], "the urgent caller first, though the other waited longer")
        #expect(machine.release(1, now: Self.start) == [], "one free stream: kept for urgent callers, so the other still waits")
        #expect(machine.release(1, now: Self.start) == [], "two: both kept")
        #expect(machine.release(1, now: Self.start) == [.serve(100, on: 1)], "a third is the other's")
        #expect(machine.waitingCount == 0)
        #expect(Machine.reservedStreams(of: 1000) == 100 && Machine.reservedStreams(of: 9) == 0, "none below ten streams")
    }

    @Test("a full line turns other callers away, never an urgent one")
    func urgentPastAFullLine() {
        var machine = Self.ready(limits: [1: 1])
        #expect(machine.acquire(1, now: Self.start) == .use(1))
        for id: UInt64 in 2...4 { guard case .wait = machine.acquire(id, now: Self.start) else { Issue.record("caller \(id) did not wait"); return } }
        guard case .fail(let error) = machine.acquire(5, now: Self.start), error.code == .overloaded else { Issue.record("a fourth waiter past a line of 3"); return }
        guard case .wait = machine.acquire(6, urgent: true, now: Self.start) else { Issue.record("an urgent caller was turned away"); return }
        #expect(machine.release(1, now: Self.start) == [.serve(6, on: 1)])
    }

    @Test("a stream freed after a waiter's deadline fails it, unprocessed, and serves the next in time")
    func releaseAfterDeadline() {
        var machine = Self.ready(limits: [1: 1])
        #expect(machine.acquire(1, now: Self.start) == .use(1))
        guard case .wait = machine.acquire(2, now: Self.start) else { Issue.record("2 did not wait"); return }
        guard case .wait = machine.acquire(3, now: Self.start + .milliseconds(500)) else { Issue.record("3 did not wait"); return }
        let actions = machine.release(1, now: Self.start + .milliseconds(1200))
        #expect(actions.count == 2)
        guard case .fail(2, let error) = actions.first else { Issue.record("the expired waiter was not failed first: \(actions)"); return }
        #expect(error.code == .timedOut && error.outcome == .notProcessed)
        #expect(actions.last == .serve(3, on: 1), "the waiter still in time gets the stream")
        #expect(machine.waitingCount == 0)
    }

    @Test("the line is bounded: past it a caller fails Overloaded at once; a release serves the oldest")
    func boundedLine() {
        var machine = Self.ready(limits: [1: 1, 2: 1])
        _ = machine.acquire(1, now: Self.start)
        _ = machine.acquire(2, now: Self.start)
        for id in 3...5 { guard case .wait = machine.acquire(UInt64(id), now: Self.start) else { Issue.record("\(id) did not wait"); return } }
        guard case .fail(let error) = machine.acquire(6, now: Self.start) else { Issue.record("the line is not bounded"); return }
        #expect(error.code == .overloaded && error.outcome == .notProcessed)
        #expect(machine.release(2, now: Self.start) == [.serve(3, on: 2)])
        let cancelled = machine.cancel(4)
        let again = machine.cancel(4)
        #expect(cancelled && !again)
        #expect(machine.release(1, now: Self.start) == [.serve(5, on: 1)])
    }

    @Test("the sweep fails callers that waited past the request timeout, and stops once nobody waits")
    func sweep() {
        var machine = Self.ready(limits: [1: 1])
        _ = machine.acquire(1, now: Self.start)
        _ = machine.acquire(2, now: Self.start)
        _ = machine.acquire(3, now: Self.start + .milliseconds(500))
        let expired = machine.sweepDue(now: Self.start + .seconds(1))
        guard case .fail(2, let error) = expired.first else { Issue.record("no timeout: \(expired)"); return }
        #expect(error.code == .timedOut && error.outcome == .notProcessed)
        #expect(expired.count == 2 && expired.last == .sweepWaitersAgain(in: .milliseconds(100)), "caller 3 still waits")
        let later = machine.sweepDue(now: Self.start + .seconds(2))
        #expect(later.count == 1, "caller 3 times out; nobody waits, so no further sweep")
        #expect(machine.waiters.isEmpty)
    }

    @Test("a failed attempt backs off exponentially; when nothing could serve, the waiting callers hear why at once")
    func failedAttempts() {
        var machine = Self.machine(connections: 1)
        let waiting = machine.acquire(1, now: Self.start)
        #expect(waiting == .wait([.sweepWaitersAgain(in: .milliseconds(100)), .open(1)]))
        let failure = APNsSendError(.connectFailed, .notProcessed, "refused")
        let first = machine.connectionClosed(1, wasReady: false, failure: failure, now: Self.start)
        #expect(first.first == .fail(1, failure))
        guard case .checkConnectionsAgain(let delay)? = first.last else { Issue.record("no retry planned: \(first)"); return }
        #expect(delay >= .milliseconds(100) && delay <= .milliseconds(200), "the first retry: half to all of 200 ms, not below the floor")
        let reopened = machine.connectCheckDue(now: Self.start + delay)
        #expect(reopened == [.open(2)])
        let second = machine.connectionClosed(2, wasReady: false, failure: failure, now: Self.start + delay)
        guard case .checkConnectionsAgain(let longer)? = second.last else { Issue.record("no second retry: \(second)"); return }
        #expect(longer >= .milliseconds(200) && longer <= .milliseconds(400), "the delay doubles")
        #expect(machine.consecutiveFailures == 2)
        _ = machine.connectCheckDue(now: Self.start + delay + longer)
        _ = machine.connectionReady(3, streamLimit: 1, now: Self.start + delay + longer)
        #expect(machine.consecutiveFailures == 0, "a connection that serves resets the backoff")
    }

    @Test("while attempts keep failing and another is under way, a caller times out hearing the last failure; a served connection clears it")
    func timeoutNamesTheLastFailure() {
        var machine = Self.machine(connections: 2)
        _ = machine.acquire(1, now: Self.start)
        #expect(machine.connectCheckDue(now: Self.start + .milliseconds(100)) == [.open(2)])
        let stalled = APNsSendError(.connectFailed, .notProcessed, "proxy 127.0.0.1:3128 did not answer CONNECT within 1 s")
        let closed = machine.connectionClosed(1, wasReady: false, failure: stalled, now: Self.start + .milliseconds(200))
        #expect(!closed.contains(.fail(1, stalled)), "connection 2 may still serve: the caller keeps waiting")
        let expired = machine.sweepDue(now: Self.start + .seconds(1))
        guard case .fail(1, let error) = expired.first else { Issue.record("no timeout: \(expired)"); return }
        #expect(error.code == .timedOut)
        #expect(error.message.hasSuffix("; the last connection attempt failed: proxy 127.0.0.1:3128 did not answer CONNECT within 1 s"), "\(error.message)")
        _ = machine.connectionReady(2, streamLimit: 1, now: Self.start + .seconds(1))
        _ = machine.acquire(2, now: Self.start + .seconds(2))
        _ = machine.acquire(3, now: Self.start + .seconds(2))
        guard case .fail(3, let later)? = machine.sweepDue(now: Self.start + .seconds(3)).first else { Issue.record("caller 3 did not time out"); return }
        #expect(!later.message.contains("last connection attempt"), "a connection served since")
    }

    @Test("a draining connection is replaced; a credential rejection retires every connection; shutdown fails the line")
    func drainsAndShutdown() {
        var machine = Self.ready(limits: [1: 5, 2: 5])
        #expect(machine.connectionDraining(1, now: Self.start + .seconds(10)) == [.open(3)])
        #expect(machine.acquire(7, now: Self.start) == .use(2), "a draining connection takes no new streams")
        #expect(machine.credentialRejected("InvalidProviderToken").map { if case .retire(let id, _) = $0 { id } else { 0 } } == [1, 2, 3])
        var busy = Self.ready(limits: [1: 1])
        _ = busy.acquire(1, now: Self.start)
        _ = busy.acquire(2, now: Self.start)
        let actions = busy.shutdown()
        #expect(actions.count == 2)
        guard case .fail(2, let error) = actions[0] else { Issue.record("the waiter was not failed"); return }
        #expect(error.code == .shutdown)
        #expect(actions[1] == .retire(1, reason: "client shutdown"))
        guard case .fail = busy.acquire(3, now: Self.start) else { Issue.record("served after shutdown"); return }
    }

    /// A started pool whose connections (ids 1…) are ready with these stream limits.
    static func ready(limits: [Int: Int]) -> Machine {
        var machine = machine(connections: limits.count, waiters: 3)
        _ = machine.acquire(0, now: start)
        var now = start
        while machine.nextConnectionID <= limits.count {
            now = now + .seconds(1)
            _ = machine.connectCheckDue(now: now)
        }
        for (id, limit) in limits.sorted(by: { $0.key < $1.key }) { _ = machine.connectionReady(id, streamLimit: limit, now: start) }
        // Caller 0 got the first free stream; give it back.
        _ = machine.release(1, now: Self.start)
        return machine
    }
}
