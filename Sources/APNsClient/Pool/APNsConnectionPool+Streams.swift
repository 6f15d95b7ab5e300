import APNsCore
import CoreMetrics
import NIOConcurrencyHelpers
import NIOCore
import Synchronization

/// Reserving and releasing streams, and the bounded line of callers waiting for one.
extension APNsConnectionPool {
    /// Gives `send` a stream on the connection with the most free streams, or puts it in line when
    /// none is free (an urgent send may also take the streams kept for urgent ones, and waits in a
    /// line served first).
    ///
    /// The common case (a stream is free) takes the lock once and goes straight on to the connection.
    func acquire(for send: PoolSend) {
        if let connection = state.withLockedValue({ locked in locked.machine.acquireFree(urgent: send.urgent).map { locked.connections[$0]! } }) {
            return send.use(connection)
        }
        let (connection, effects) = state.withLockedValue { locked -> (APNsConnection?, [Effect]) in
            switch locked.machine.acquire(send.waiterID, urgent: send.urgent, now: .now()) {
            case .use(let id):
                return (locked.connections[id]!, [])
            case .fail(let error):
                return (nil, [.fail(send, error)])
            case .wait(let actions):
                locked.waiting[send.waiterID] = send
                return (nil, translate(actions, in: &locked))
            }
        }
        if let connection { send.use(connection) }
        perform(effects)
    }

    /// Takes the send `id` out of the waiting line, if it still waits there, and fails it with `error`.
    func withdrawWaiting(_ id: UInt64, because error: APNsSendError) {
        let send = state.withLockedValue { locked in
            locked.machine.cancel(id) ? locked.waiting.removeValue(forKey: id) : nil
        }
        send?.fail(error)
    }

    func release(_ connection: APNsConnection) {
        let (effects, inUse, limit) = state.withLockedValue { locked in
            (translate(locked.machine.release(connection.id, now: .now()), in: &locked), locked.machine.streamsInUse, locked.machine.streamLimit)
        }
        metrics.streamsInUse.record(inUse)
        metrics.streamLimit.record(limit)
        perform(effects)
    }
}
