import APNsCore
import Logging
import NIOConcurrencyHelpers
import NIOCore

/// The state machine's actions, turned into effects under the lock (ids become objects) and carried out
/// after it.
extension APNsConnectionPool {
    enum Effect {
        case open(Int)
        /// A waiting send goes on with a stream on this connection.
        case serve(PoolSend, APNsConnection)
        case fail(PoolSend, APNsSendError)
        case checkConnections(in: TimeAmount)
        case sweep(in: TimeAmount)
        case retire(APNsConnection, reason: String)
    }

    /// `actions` as effects; call with the lock held.
    func translate(_ actions: [PoolStateMachine<SystemRandomNumberGenerator>.Action], in locked: inout Locked) -> [Effect] {
        actions.compactMap { action in
            switch action {
            case .open(let id):
                return .open(id)
            case .serve(let waiter, let id):
                guard let send = locked.waiting.removeValue(forKey: waiter) else { return nil }
                // A connection is stored before it can report ready; if it is gone, the caller still hears.
                guard let connection = locked.connections[id] else {
                    return .fail(send, APNsSendError(.connectFailed, .notProcessed, "connection \(id) closed before it served"))
                }
                return .serve(send, connection)
            case .fail(let waiter, let error):
                return locked.waiting.removeValue(forKey: waiter).map { .fail($0, error) }
            case .checkConnectionsAgain(let delay):
                return .checkConnections(in: delay)
            case .sweepWaitersAgain(let delay):
                return .sweep(in: delay)
            case .retire(let id, let reason):
                return locked.connections[id].map { .retire($0, reason: reason) }
            }
        }
    }

    /// Carries out `effects`, outside the lock.
    func perform(_ effects: [Effect]) {
        for effect in effects {
            switch effect {
            case .open(let id):
                open(id)
            case .serve(let send, let connection):
                // On the connection's next tick: a stream is freed inside an answer's callback, and a
                // waiting send served there would nest inside it (and the next one inside that).
                connection.eventLoop.execute { send.use(connection) }
            case .fail(let send, let error):
                send.fail(error)
            case .checkConnections(let delay):
                group.next().scheduleTask(in: delay) { [self] in
                    perform(state.withLockedValue { locked in translate(locked.machine.connectCheckDue(now: .now()), in: &locked) })
                }
            case .sweep(let delay):
                group.next().scheduleTask(in: delay) { [self] in
                    perform(state.withLockedValue { locked in translate(locked.machine.sweepDue(now: .now()), in: &locked) })
                }
            case .retire(let connection, let reason):
                connection.retire(reason: reason)
            }
        }
    }
}
