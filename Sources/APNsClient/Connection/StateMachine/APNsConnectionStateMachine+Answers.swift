import APNsCore
import HTTP2
import NIOCore

/// What comes back: answers, closed streams, SETTINGS, GOAWAY, and requests that time out.
extension APNsConnectionStateMachine {
    /// Frames arrived (any): the connection is alive.
    mutating func framesReceived(now: NIODeadline) {
        health.lastFrame = now
    }

    /// APNs answered stream `streamID`.
    mutating func responseReceived(_ streamID: Int32, _ response: APNsResponse) -> Actions {
        guard let stream = streams.removeValue(for: streamID) else { return [] }  // timed out already
        let context = stream.submission.context
        guard case .rejected(let rejection) = response else {
            // Changed first, reported after: a method call on `self` reads `self` before its arguments.
            let changed = streamLimit.pushAccepted()
            // The common case, one action and no allocation: every answer runs this.
            guard !changed, phase != .draining else {
                return limitReport(changed: changed) + [.resume(context, .response(response))] + closeIfIdle()
            }
            return Actions(.resume(context, .response(response)))
        }
        switch rejection.disposition {
        case .retryAfterTokenRefresh where !stream.submission.hasRetriedAfterExpiry && stream.submission.token != nil:
            return retryWithFreshToken(stream, rejection: rejection)
        case .recycleConnection:
            return [.record(.recycled(rejection.reason.name))] + drain(reason: rejection.reason.name) + [.resume(context, .retryElsewhere(rejection))]
        case .credentialFailure:
            return [.report(.credentialRejected(rejection.reason)), .resume(context, .response(response))] + closeIfIdle()
        default:
            return [.resume(context, .response(response))] + closeIfIdle()
        }
    }

    /// Stream `streamID` closed; with an answer already taken, nothing is left to do.
    mutating func streamClosed(_ streamID: Int32, errorCode: HTTP2ErrorCode) -> Actions {
        guard let stream = streams.removeValue(for: streamID) else { return [] }
        let context = stream.submission.context
        if errorCode == .refusedStream {
            return [.record(.streamRefused), .resume(context, .notProcessed("stream refused unprocessed"))] + closeIfIdle()
        }
        return [.resume(context, .failed(APNsSendError(.streamReset, .unknown, "APNs reset the stream (\(errorCode))")))] + closeIfIdle()
    }

    /// The server's SETTINGS_MAX_CONCURRENT_STREAMS.
    mutating func serverSettings(maxConcurrentStreams: UInt32) -> Actions {
        let changed = streamLimit.serverAdvertised(maxConcurrentStreams)
        return limitReport(changed: changed)
    }

    /// APNs is going away: streams above its last stream id close as refused (HTTP/2 reports them),
    /// the rest may still be answered.
    mutating func goAway(reason: String) -> Actions {
        [.record(.goAway(reason: reason))] + drain(reason: "GOAWAY \(reason)")
    }

    /// The sweep: requests past their deadline fail and their streams are reset.
    mutating func sweepDue(now: NIODeadline) -> Actions {
        sweepArmed = false
        var actions: Actions = []
        let failure = APNsSendError(.timedOut, .unknown, "no answer within \(timing.requestTimeout); the stream was reset")
        for streamID in streams.ids where streams[streamID]!.deadline <= now {
            let stream = streams.removeValue(for: streamID)!
            actions += [.record(.timedOut), .resetStream(streamID), .resume(stream.submission.context, .failed(failure))]
        }
        if !streams.isEmpty {
            sweepArmed = true
            actions.append(.armTimeoutSweep(in: sweepInterval))
        }
        return actions + closeIfIdle()
    }

    /// The limit as the pool should see it, when it changed and the connection still serves.
    func limitReport(changed: Bool) -> Actions {
        changed && phase == .ready ? [.report(.streamLimitChanged(streamLimit.effective))] : []
    }
}
