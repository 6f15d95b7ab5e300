import APNsCore
import NIOCore

/// Every decision of one APNs connection, with no I/O: when it takes requests, which provider token a
/// request carries, what an answer means (a retry with a fresh token, retirement, a credential APNs
/// refused), stream limits, request timeouts, idle PINGs, draining and closing.
///
/// The connection feeds it events on its event loop and carries out the ``Action``s it returns, in
/// order. A request is known by its `Context` (the connection's slot number for it: the request and
/// its caller stay in the connection's table, not in actions), and every context that enters through
/// ``requestArrived(_:now:)`` leaves in exactly one ``Action/resume(_:_:)``. When a request makes the
/// connection drain, the pool hears of the draining before the caller resumes, so the caller's resend
/// never comes back to this connection.
/// Time comes in as `now`; the token source brings its own clock.
struct APNsConnectionStateMachine<Context> {
    enum Phase: Equatable { case connecting, ready, draining, closed }

    /// What one event asks of the connection, in order.
    typealias Actions = ActionList<Action>

    /// A request on the wire: what it needs when its answer comes.
    struct Stream {
        let submission: Submission
        /// When the request times out. Checked by a sweep rather than a timer per request: cancelling
        /// one of a thousand scheduled tasks costs a search of NIO's timer heap, on every answer.
        let deadline: NIODeadline
    }

    /// A request to put on the wire, with the token it carries.
    struct Submission {
        let context: Context
        let token: ProviderToken?
        /// A request sent again after `ExpiredProviderToken` is not sent again a second time.
        let hasRetriedAfterExpiry: Bool
    }

    /// Why a submission did not become a stream.
    enum SubmitFailure: Equatable {
        /// The request itself cannot be sent (a header HTTP/2 refuses): it fails alone.
        case invalidRequest(String)
        /// The session takes no new stream: the connection retires.
        case sessionRefused(String)
    }

    struct Timing: Equatable {
        var requestTimeout: TimeAmount
        var pingInterval: TimeAmount
        var pingTimeout: TimeAmount
    }

    let timing: Timing
    /// The credential's token source; nil for certificate connections.
    let tokenSource: ProviderTokenSource?

    // The state, read by tests; written only by this type's methods (its extensions live in other files).
    var phase = Phase.connecting
    var streamLimit: StreamLimit
    var tokenState: ConnectionTokenState?
    var streams = OpenStreams<Stream>()
    /// Submissions handed out and not yet reported opened or failed: the connection is not idle.
    var submitting = 0
    var sweepArmed = false
    var closeRequested = false
    var health = HealthState()
    var lastTokenAgeReport = NIODeadline.uptimeNanoseconds(0)

    init(timing: Timing, tokenSource: ProviderTokenSource?, maximumStreams: Int?) {
        self.timing = timing
        self.tokenSource = tokenSource
        streamLimit = StreamLimit(usesTokens: tokenSource != nil, cap: maximumStreams)
        tokenState = tokenSource.map { ConnectionTokenState(policy: $0.policy) }
    }

    /// Streams on the wire.
    var inFlight: Int { streams.count }

    // MARK: Lifecycle

    /// TLS and HTTP/2 are up.
    mutating func connected(now: NIODeadline) -> Actions {
        guard phase == .connecting else { return [] }
        phase = .ready
        health.lastFrame = now
        return [.record(.connected), .report(.ready(streamLimit: streamLimit.effective)), .scheduleHealthCheck(in: timing.pingInterval)]
    }

    /// The attempt failed before the connection was up.
    mutating func connectFailed(_ failure: APNsSendError) -> Actions {
        guard phase == .connecting else { return [] }
        phase = .closed
        return [.report(.closed(failure, wasReady: false))]
    }

    /// The pool retires the connection (credential rejected, shutdown): no new streams, close once idle.
    mutating func retire(reason: String) -> Actions {
        drain(reason: reason)
    }

    /// The socket closed: every request still on the wire fails, as possibly processed.
    mutating func closed(_ failure: APNsSendError?) -> Actions {
        guard phase != .closed else { return [] }
        let wasReady = phase != .connecting
        phase = .closed
        let lost = APNsSendError(.connectionLost, .unknown, "the connection closed before APNs answered")
        var actions: Actions = []
        for streamID in streams.ids { actions.append(.resume(streams[streamID]!.submission.context, .failed(lost))) }
        streams.removeAll()
        health.outstandingPing = nil
        actions.append(.report(.closed(failure, wasReady: wasReady)))
        return actions
    }

    // MARK: Internals shared by the extensions

    /// Takes no new streams; tells the pool (which opens a replacement); closes once idle.
    mutating func drain(reason: String) -> Actions {
        guard phase == .ready || phase == .connecting else { return [] }
        phase = .draining
        return [.report(.draining(reason: reason))] + closeIfIdle()
    }

    /// A draining connection with nothing on the wire closes, once.
    mutating func closeIfIdle() -> Actions {
        guard phase == .draining, streams.isEmpty, submitting == 0, !closeRequested else { return [] }
        closeRequested = true
        return [.close]
    }
}

extension APNsConnectionStateMachine.Submission: Equatable where Context: Equatable {}
