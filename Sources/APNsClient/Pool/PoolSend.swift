import APNsCore
import Metrics
import NIOCore

/// One request's way through a pool: a stream, the connection's answer, and the transparent re-sends
/// of what APNs did not process, ending in exactly one call of `completion`.
///
/// A class, so each callback on the way captures this one reference and needs no context of its own.
/// `completion` runs on the loop of the connection that answered; when no connection took the request
/// (the line was full, the wait timed out, the pool shut down) on the thread that found that out.
///
/// `@unchecked Sendable`: `connection` and `resends` change only between the send's steps, one at a
/// time: a step hands the send to a connection's loop (`EventLoop.execute`, or the caller already on
/// it) or to the pool's waiting line (under its lock), and the next step runs after that hand-over.
final class PoolSend: @unchecked Sendable {
    let pool: APNsConnectionPool
    let request: OutgoingRequest
    let urgent: Bool
    /// Names the send in the pool's waiting line, where a cancelled caller withdraws it.
    let waiterID: UInt64
    let completion: @Sendable (Result<APNsResponse, APNsSendError>) -> Void
    private let started = ContinuousClock.now
    /// The connection holding the send's stream, between ``use(_:)`` and its answer.
    private var connection: APNsConnection?
    private var resends = 0

    init(
        pool: APNsConnectionPool, request: consuming OutgoingRequest, urgent: Bool, waiterID: UInt64,
        completion: @escaping @Sendable (Result<APNsResponse, APNsSendError>) -> Void
    ) {
        self.pool = pool
        self.request = request
        self.urgent = urgent
        self.waiterID = waiterID
        self.completion = completion
    }

    /// Sends on `connection`, where the pool reserved a stream for it.
    func use(_ connection: APNsConnection) {
        self.connection = connection
        connection.execute(request) { [self] outcome in answered(outcome) }
    }

    /// Ends the send without an answer.
    func fail(_ error: APNsSendError) {
        finish(.failure(error))
    }

    private func answered(_ outcome: StreamOutcome) {
        guard let connection else { preconditionFailure("an answer for a send that holds no stream") }
        self.connection = nil
        pool.release(connection)
        let limit = pool.configuration.maximumTransparentResends
        switch outcome {
        case .response(let response):
            finish(.success(response))
        case .failed(let error):
            finish(.failure(error))
        case .notProcessed(let why):
            guard resends < limit else {
                return finish(.failure(APNsSendError(.refused, .notProcessed, "refused unprocessed \(resends + 1) times; last: \(why)")))
            }
            resend(after: connection)
        case .retryElsewhere(let rejection):
            guard resends < limit else { return finish(.success(.rejected(rejection))) }
            resend(after: connection)
        }
    }

    /// Sends again on the loop's next tick: the GOAWAY or closure that refused the request is reported
    /// to the pool in the same run of the connection's actions as this answer, so by then the pool no
    /// longer offers that connection; and a run of refusals cannot nest one send inside another.
    private func resend(after connection: APNsConnection) {
        resends += 1
        pool.statistics.record(credential: pool.credential.name, .resent)
        connection.eventLoop.execute { [self] in pool.acquire(for: self) }
    }

    private func finish(_ result: Result<APNsResponse, APNsSendError>) {
        pool.metrics.requestDuration.record(duration: ContinuousClock.now - started)
        completion(result)
    }
}
