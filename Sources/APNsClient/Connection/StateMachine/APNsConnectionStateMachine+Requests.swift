import APNsCore
import NIOCore

/// Requests going out: whether the connection takes them, the token each carries, and how a
/// submission ends.
extension APNsConnectionStateMachine {
    /// A caller wants `context`'s request sent on this connection.
    mutating func requestArrived(_ context: Context, now: NIODeadline) -> Actions {
        guard phase == .ready else {
            return [.resume(context, .notProcessed("the connection is no longer taking requests"))]
        }
        guard let tokenSource, var state = tokenState else {
            submitting += 1
            return Actions(.submit(Submission(context: context, token: nil, hasRetriedAfterExpiry: false)))
        }
        let previous = state.token
        let decision: ConnectionTokenState.Action
        do {
            decision = try state.beforeRequest(source: tokenSource)
        } catch {
            return [.resume(context, .failed(APNsSendError(.signingFailed, .notProcessed, "cannot sign a provider token: \(error)")))]
        }
        tokenState = state
        switch decision {
        case .send(let token):
            submitting += 1
            let submit = Action.submit(Submission(context: context, token: token, hasRetriedAfterExpiry: false))
            let refreshed = previous != nil && previous != token
            // The age is on every request; a gauge needs it at most once a second per connection.
            let ageDue = now - lastTokenAgeReport >= .seconds(1)
            guard refreshed || ageDue else { return Actions(submit) }  // the common case: one action, kept inline
            var actions: Actions = []
            if refreshed { actions.append(.record(.tokenRefreshed)) }
            if ageDue {
                lastTokenAgeReport = now
                actions.append(.record(.tokenAge(seconds: token.age(at: tokenSource.now()))))
            }
            actions.append(submit)
            return actions
        case .retireConnection:
            return drain(reason: "its provider token is due but may not change yet")
                + [.resume(context, .notProcessed("connection retired for a token change"))]
        }
    }

    /// HTTP/2 gave `submission` stream `streamID`.
    mutating func streamOpened(_ submission: Submission, as streamID: Int32, now: NIODeadline) -> Actions {
        submitting -= 1
        streams.insert(Stream(submission: submission, deadline: now + timing.requestTimeout), for: streamID)
        guard !sweepArmed else { return [] }
        sweepArmed = true
        return Actions(.armTimeoutSweep(in: sweepInterval))
    }

    /// `submission` never became a stream.
    mutating func submitFailed(_ submission: Submission, _ failure: SubmitFailure) -> Actions {
        submitting -= 1
        switch failure {
        case .invalidRequest(let why):
            // Checked before anything reached nghttp2: the request fails alone, every other stream carries on.
            return [.resume(submission.context, .failed(APNsSendError(.invalidRequest, .notProcessed, "the request cannot be sent: \(why)")))]
                + closeIfIdle()
        case .sessionRefused(let why):
            return drain(reason: "HTTP/2 refused a new stream") + [.resume(submission.context, .notProcessed("cannot submit: \(why)"))]
        }
    }

    /// `ExpiredProviderToken` for `stream`: one transparent retry with a new token; or, when this
    /// connection may not change its token yet (or takes no new streams), a retry elsewhere.
    mutating func retryWithFreshToken(_ stream: Stream, rejection: APNsRejection) -> Actions {
        let context = stream.submission.context
        guard phase == .ready, let tokenSource, var state = tokenState, let rejected = stream.submission.token else {
            // A GOAWAY (or a retirement) came first: the retry goes to another connection.
            return [.resume(context, .retryElsewhere(rejection))] + closeIfIdle()
        }
        let decision: ConnectionTokenState.Action
        do {
            decision = try state.afterExpiredToken(rejected, source: tokenSource)
        } catch {
            return [.resume(context, .failed(APNsSendError(.signingFailed, .notProcessed, "cannot sign a provider token: \(error)")))] + closeIfIdle()
        }
        tokenState = state
        switch decision {
        case .send(let token):
            submitting += 1
            return [.record(.tokenRefreshed), .submit(Submission(context: context, token: token, hasRetriedAfterExpiry: true))]
        case .retireConnection:
            return drain(reason: "ExpiredProviderToken within 20 minutes of a token change") + [.resume(context, .retryElsewhere(rejection))]
        }
    }

    /// The sweep runs a few times per request timeout while streams are in flight.
    var sweepInterval: TimeAmount {
        max(.milliseconds(10), min(.milliseconds(100), .nanoseconds(timing.requestTimeout.nanoseconds / 10)))
    }
}
