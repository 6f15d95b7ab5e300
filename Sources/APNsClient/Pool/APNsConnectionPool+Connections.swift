import APNsCore
import Logging
import NIOCore
import TLS
import NIOConcurrencyHelpers

/// Opening, replacing and hearing from connections.
extension APNsConnectionPool {
    /// Opens connections up to the target, one attempt at a time, spaced by the floor and the backoff.
    func ensureConnections() {
        enum Step { case open(Int), wait(TimeAmount), nothing }
        let now = NIODeadline.now()
        let step = state.withLockedValue { state -> Step in
            guard state.isStarted, !state.isShutDown, !state.connectScheduled,
                state.activeCount < (credential.connections ?? configuration.connectionsPerPool)
            else { return .nothing }
            if let last = state.lastAttempt {
                let due = last + TimeAmount(reconnect.delay(afterFailures: state.consecutiveFailures))
                if due > now {
                    state.connectScheduled = true
                    return .wait(due - now)
                }
            }
            let id = state.nextConnectionID
            state.nextConnectionID += 1
            state.lastAttempt = now
            return .open(id)
        }
        switch step {
        case .nothing:
            return
        case .wait(let delay):
            group.next().scheduleTask(in: delay) { [self] in
                state.withLockedValue { $0.connectScheduled = false }
                ensureConnections()
            }
        case .open(let id):
            open(id)
            // More may be needed; the floor decides when.
            ensureConnections()
        }
    }

    private func open(_ id: Int) {
        do {
            try APNsConnection.open(
                id: id, group: group, context: tlsContext, credential: credential, endpoint: endpoint,
                configuration: configuration, statistics: statistics, logger: logger,
                register: { connection in
                    state.withLockedValue { $0.entries[id] = PoolState.Entry(connection: connection, phase: .connecting) }
                },
                report: { [weak self] connection, event in self?.handle(event, from: connection) }
            )
        } catch {
            attemptFailed(error)
        }
    }

    func handle(_ event: ConnectionEvent, from connection: APNsConnection) {
        switch event {
        case .ready(let limit):
            resume(state.withLockedValue { state in
                state.entries[connection.id]?.phase = .ready
                state.entries[connection.id]?.limit = limit
                state.consecutiveFailures = 0
                return state.serveWaiters()
            })
        case .streamLimitChanged(let limit):
            resume(state.withLockedValue { state in
                state.entries[connection.id]?.limit = limit
                return state.serveWaiters()
            })
        case .draining:
            state.withLockedValue { $0.entries[connection.id]?.phase = .draining }
            ensureConnections()
        case .credentialRejected(let reason):
            logger.error("credential rejected by APNs; closing every connection", metadata: ["reason": "\(reason)"])
            let others = state.withLockedValue { state in state.entries.values.map(\.connection) }
            for other in others { other.retire(reason: "credential rejected: \(reason)") }
        case .closed(let error, let wasReady):
            state.withLockedValue { _ = $0.entries.removeValue(forKey: connection.id) }
            if !state.withLockedValue({ $0.isShutDown }) { statistics.record(credential: credential.name, .reconnect) }
            if !wasReady {
                attemptFailed(error)
            } else {
                ensureConnections()
            }
        }
    }

    /// A connection attempt ended before the connection could serve: back off, and if nothing else can
    /// serve the waiting callers, tell them now rather than at their timeout.
    private func attemptFailed(_ error: (any Error)?) {
        statistics.record(credential: credential.name, .connectFailed)
        let failure = Self.sendError(for: error, endpoint: endpoint)
        logger.warning("connection attempt failed", metadata: ["error": "\(failure.message)"])
        let nothingLeft = state.withLockedValue { state -> Bool in
            state.consecutiveFailures += 1
            return !state.entries.values.contains { $0.phase != .draining }
        }
        if nothingLeft { failWaiters(failure) }
        ensureConnections()
    }

    static func sendError(for error: (any Error)?, endpoint: APNsEndpoint) -> APNsSendError {
        if let tlsError = error as? TLSError {
            return APNsSendError(.tlsFailed, .notProcessed, "TLS with \(endpoint) failed: \(tlsError)")
        }
        return APNsSendError(.connectFailed, .notProcessed, "cannot connect to \(endpoint): \(error.map { "\($0)" } ?? "closed during setup")")
    }
}
