import NIOCore
import Synchronization

/// Reserving and releasing streams, and the bounded line of callers waiting for one.
extension APNsConnectionPool {
    private enum Reservation {
        case use(APNsConnection)
        case fail(APNsSendError)
        case wait
    }

    func acquire() async throws -> APNsConnection {
        let id = nextWaiterID()
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                let reservation = state.withLock { state -> Reservation in
                    if state.isShutDown { return .fail(APNsSendError(.shutdown, .notProcessed, "the client is shutting down")) }
                    state.isStarted = true
                    if let connection = state.reserveBest() { return .use(connection) }
                    guard state.waiters.count < configuration.maximumWaitingRequests else {
                        return .fail(APNsSendError(.overloaded, .notProcessed, "\(state.waiters.count) requests already wait for a stream"))
                    }
                    state.waiters.append(PoolState.Waiter(id: id, continuation: continuation))
                    return .wait
                }
                switch reservation {
                case .use(let connection):
                    continuation.resume(returning: connection)
                case .fail(let error):
                    continuation.resume(throwing: error)
                case .wait:
                    armWaitTimeout(id)
                    ensureConnections()
                }
            }
        } onCancel: {
            if let waiter = state.withLock({ $0.removeWaiter(id) }) {
                waiter.timeout?.cancel()
                waiter.continuation.resume(throwing: CancellationError())
            }
        }
    }

    func release(_ connection: APNsConnection) {
        let served = state.withLock { state -> [(PoolState.Waiter, APNsConnection)] in
            state.entries[connection.id]?.inFlight -= 1
            return state.serveWaiters()
        }
        resume(served)
    }

    func resume(_ served: [(PoolState.Waiter, APNsConnection)]) {
        for (waiter, connection) in served {
            waiter.timeout?.cancel()
            waiter.continuation.resume(returning: connection)
        }
    }

    func failWaiters(_ error: APNsSendError) {
        let waiters = state.withLock { state -> [PoolState.Waiter] in
            defer { state.waiters.removeAll() }
            return Array(state.waiters)
        }
        for waiter in waiters {
            waiter.timeout?.cancel()
            waiter.continuation.resume(throwing: error)
        }
    }

    private func armWaitTimeout(_ id: UInt64) {
        let timeout = group.next().scheduleTask(in: TimeAmount(configuration.requestTimeout)) { [self] in
            guard let waiter = state.withLock({ $0.removeWaiter(id) }) else { return }
            waiter.continuation.resume(
                throwing: APNsSendError(.timedOut, .notProcessed, "no stream became free within \(configuration.requestTimeout)")
            )
        }
        let stillWaiting = state.withLock { state -> Bool in
            guard let index = state.waiters.firstIndex(where: { $0.id == id }) else { return false }
            state.waiters[index].timeout = timeout
            return true
        }
        if !stillWaiting { timeout.cancel() }
    }

    private func nextWaiterID() -> UInt64 {
        waiterIDs.wrappingAdd(1, ordering: .relaxed).newValue
    }
}
