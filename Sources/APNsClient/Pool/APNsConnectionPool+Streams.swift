import APNsCore
import CoreMetrics
import NIOCore
import Synchronization
import NIOConcurrencyHelpers

/// Reserving and releasing streams, and the bounded line of callers waiting for one.
extension APNsConnectionPool {
    private enum Reservation {
        case use(APNsConnection)
        case fail(APNsSendError)
        case wait
    }

    /// A stream on the connection with the most free streams, waiting in line when none is free.
    ///
    /// The common case (a stream is free) takes the lock once and suspends nothing. Waiters hold unsafe
    /// continuations: each leaves ``PoolState/waiters`` under the lock before it is resumed, so it is
    /// resumed exactly once.
    func acquire() async throws -> APNsConnection {
        if let connection = state.withLockedValue({ state in state.isShutDown ? nil : state.reserveBest() }) {
            return connection
        }
        let id = nextWaiterID()
        return try await withTaskCancellationHandler {
            try await withUnsafeThrowingContinuation { continuation in
                let reservation = state.withLockedValue { state -> Reservation in
                    if state.isShutDown { return .fail(APNsSendError(.shutdown, .notProcessed, "the client is shutting down")) }
                    state.isStarted = true
                    if let connection = state.reserveBest() { return .use(connection) }
                    guard state.waiters.count < configuration.maximumWaitingRequests else {
                        return .fail(APNsSendError(.overloaded, .notProcessed, "\(state.waiters.count) requests already wait for a stream"))
                    }
                    state.waiters.append(PoolState.Waiter(id: id, continuation: continuation, deadline: .now() + TimeAmount(configuration.requestTimeout)))
                    return .wait
                }
                switch reservation {
                case .use(let connection):
                    continuation.resume(returning: connection)
                case .fail(let error):
                    continuation.resume(throwing: error)
                case .wait:
                    armWaiterSweep()
                    ensureConnections()
                }
            }
        } onCancel: {
            if let waiter = state.withLockedValue({ $0.removeWaiter(id) }) {
                waiter.continuation.resume(throwing: CancellationError())
            }
        }
    }

    func release(_ connection: APNsConnection) {
        let (served, inUse, limit) = state.withLockedValue { state in
            state.entries[connection.id]?.inFlight -= 1
            let served = state.serveWaiters()
            return (served, state.streamsInUse, state.streamLimit)
        }
        metrics.streamsInUse.record(inUse)
        metrics.streamLimit.record(limit)
        resume(served)
    }

    func resume(_ served: [(PoolState.Waiter, APNsConnection)]) {
        for (waiter, connection) in served {
            waiter.continuation.resume(returning: connection)
        }
    }

    func failWaiters(_ error: APNsSendError) {
        let waiters = state.withLockedValue { state -> [PoolState.Waiter] in
            defer { state.waiters.removeAll() }
            return Array(state.waiters)
        }
        for waiter in waiters {
            waiter.continuation.resume(throwing: error)
        }
    }

    /// Fails callers that waited longer than the request timeout, checking a few times per timeout
    /// while anyone waits.
    private func armWaiterSweep() {
        let arm = state.withLockedValue { state -> Bool in
            guard !state.waiterSweepScheduled, !state.waiters.isEmpty else { return false }
            state.waiterSweepScheduled = true
            return true
        }
        guard arm else { return }
        let interval = max(TimeAmount.milliseconds(10), min(TimeAmount.milliseconds(100), TimeAmount(configuration.requestTimeout / 10)))
        group.next().scheduleTask(in: interval) { [self] in
            let expired = state.withLockedValue { state in
                state.waiterSweepScheduled = false
                return state.removeExpiredWaiters(now: .now())
            }
            for waiter in expired {
                waiter.continuation.resume(
                    throwing: APNsSendError(.timedOut, .notProcessed, "no stream became free within \(configuration.requestTimeout)")
                )
            }
            armWaiterSweep()
        }
    }

    private func nextWaiterID() -> UInt64 {
        waiterIDs.wrappingAdd(1, ordering: .relaxed).newValue
    }
}
