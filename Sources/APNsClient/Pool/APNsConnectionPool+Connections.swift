import APNsCore
import Logging
import NIOConcurrencyHelpers
import NIOCore
import TLS

/// Opening connections and hearing from them.
extension APNsConnectionPool {
    func open(_ id: Int) {
        do {
            try APNsConnection.open(
                id: id, group: group, context: tlsContext, credential: credential, endpoint: endpoint,
                configuration: configuration, statistics: statistics, logger: logger,
                register: { connection in state.withLockedValue { $0.connections[id] = connection } },
                report: { [weak self] connection, event in self?.handle(event, from: connection) }
            )
        } catch {
            closed(id, wasReady: false, failure: APNsConnection.sendError(for: error, endpoint: endpoint))
        }
    }

    func handle(_ event: ConnectionEvent, from connection: APNsConnection) {
        switch event {
        case .ready(let limit):
            perform(state.withLockedValue { locked in translate(locked.machine.connectionReady(connection.id, streamLimit: limit, now: .now()), in: &locked) })
        case .streamLimitChanged(let limit):
            perform(state.withLockedValue { locked in translate(locked.machine.streamLimitChanged(connection.id, to: limit, now: .now()), in: &locked) })
        case .draining:
            perform(state.withLockedValue { locked in translate(locked.machine.connectionDraining(connection.id, now: .now()), in: &locked) })
        case .credentialRejected(let reason):
            logger.error("credential rejected by APNs; closing every connection", metadata: ["reason": "\(reason)"])
            perform(state.withLockedValue { locked in translate(locked.machine.credentialRejected(reason.name), in: &locked) })
        case .closed(let failure, let wasReady):
            closed(connection.id, wasReady: wasReady, failure: failure ?? APNsConnection.sendError(for: nil, endpoint: endpoint))
        }
    }

    /// A connection closed, or an attempt ended before it could serve.
    private func closed(_ id: Int, wasReady: Bool, failure: APNsSendError) {
        if !wasReady {
            statistics.record(credential: credential.name, .connectFailed)
            logger.warning("connection attempt failed", metadata: ["error": "\(failure.message)"])
        }
        let (effects, shutDown) = state.withLockedValue { locked in
            locked.connections[id] = nil
            return (translate(locked.machine.connectionClosed(id, wasReady: wasReady, failure: failure, now: .now()), in: &locked), locked.machine.isShutDown)
        }
        if !shutDown { statistics.record(credential: credential.name, .reconnect) }
        perform(effects)
    }
}
