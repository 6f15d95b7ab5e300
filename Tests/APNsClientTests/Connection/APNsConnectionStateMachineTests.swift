import APNsCore
import Foundation
import HTTP2
import NIOCore
import Testing
import TLS
import TestSupport
@testable import APNsClient

/// One connection's decisions without a socket: the requests it takes, the token each carries, what an
/// answer, a GOAWAY, a timeout or a PING does, and the paths that only fault injection reaches over a
/// socket (a GOAWAY during a token retry, a timeout sweep racing an answer).
@Suite("APNs connection state machine (no I/O)")
struct APNsConnectionStateMachineTests {
    typealias Machine = APNsConnectionStateMachine<Int>
    static let start = NIODeadline.uptimeNanoseconds(1_000_000_000)
    static let timing = Machine.Timing(requestTimeout: .seconds(1), pingInterval: .seconds(60), pingTimeout: .seconds(10))
    static let accepted = APNsResponse.accepted(APNsAcceptance(apnsID: nil, uniqueID: nil))
    static let expired = APNsRejection(status: 403, reason: .expiredProviderToken)
    let clock = ManualWallClock()
    let source: ProviderTokenSource

    init() throws {
        let key = try ES256PrivateKey(pemRepresentation: Fixtures.text("keys/AuthKey_TESTKEY001.p8"))
        source = ProviderTokenSource(signer: try ProviderTokenSigner(teamID: "TEAMID0001", keyID: "TESTKEY001", key: key), policy: try ProviderTokenPolicy(), clock: clock)
    }

    @Test("a certificate connection: requests wait for ready, take a stream, and are answered once")
    func certificateRequest() {
        var machine = Machine(timing: Self.timing, tokenSource: nil, maximumStreams: nil)
        #expect(machine.requestArrived(1, now: Self.start) == [.resume(1, .notProcessed("the connection is no longer taking requests"))])
        #expect(machine.connected(now: Self.start) == [.record(.connected), .report(.ready(streamLimit: 1)), .scheduleHealthCheck(in: .seconds(60))])
        #expect(machine.serverSettings(maxConcurrentStreams: 1000) == [.report(.streamLimitChanged(1000))])
        let submission = Machine.Submission(context: 2, token: nil, hasRetriedAfterExpiry: false)
        #expect(machine.requestArrived(2, now: Self.start) == [.submit(submission)])
        #expect(machine.streamOpened(submission, as: 1, now: Self.start) == [.armTimeoutSweep(in: .milliseconds(100))])
        #expect(machine.responseReceived(1, Self.accepted) == [.resume(2, .response(Self.accepted))])
        #expect(machine.responseReceived(1, Self.accepted) == [], "a stream is answered once")
        #expect(machine.inFlight == 0)
    }

    @Test("a token connection: one stream until a push is accepted, then the server's limit; the token is reused")
    func tokenLimits() throws {
        var machine = Self.ready(tokenSource: source)
        #expect(machine.serverSettings(maxConcurrentStreams: 500) == [], "one stream until a token is accepted")
        let first = try submitted(&machine, 1, as: 1)
        let token = try #require(first.token)
        #expect(machine.responseReceived(1, Self.accepted) == [.report(.streamLimitChanged(500)), .resume(1, .response(Self.accepted))])
        clock.advance(by: 49 * 60)
        #expect(try submitted(&machine, 2, as: 3).token == token, "the same token until the refresh age")
        clock.advance(by: 2 * 60)
        let refreshed = machine.requestArrived(3, now: Self.start + .seconds(2))
        #expect(refreshed.first == .record(.tokenRefreshed))
        guard case .submit(let third)? = refreshed.last else { Issue.record("no submission: \(refreshed)"); return }
        #expect(third.token != token)
    }

    @Test("ExpiredProviderToken: one retry with a new token; within 20 minutes of a change, draining before the caller hears")
    func expiredToken() throws {
        var machine = Self.ready(tokenSource: source)
        let first = try submitted(&machine, 1, as: 1)
        clock.advance(by: 21 * 60)
        let retry = machine.responseReceived(1, .rejected(Self.expired))
        #expect(retry.count == 2 && retry.first == .record(.tokenRefreshed))
        guard case .submit(let again)? = retry.last else { Issue.record("no retry: \(retry)"); return }
        #expect(again.context == 1 && again.hasRetriedAfterExpiry && again.token != first.token)
        _ = machine.streamOpened(again, as: 3, now: Self.start)
        #expect(machine.responseReceived(3, .rejected(Self.expired)) == [.resume(1, .response(.rejected(Self.expired)))], "a retried request is not retried again")

        var young = Self.ready(tokenSource: source)
        _ = try submitted(&young, 1, as: 1)
        #expect(
            young.responseReceived(1, .rejected(Self.expired)) == [
                .report(.draining(reason: "ExpiredProviderToken within 20 minutes of a token change")), .close, .resume(1, .retryElsewhere(Self.expired)),
            ],
            "the pool hears of the draining before the caller resends"
        )
    }

    @Test("GOAWAY during a token retry: the retry already submitted is refused and resent elsewhere; one not yet sent is not sent")
    func goAwayDuringTokenRetry() throws {
        var machine = Self.ready(tokenSource: source)
        _ = try submitted(&machine, 1, as: 1)
        clock.advance(by: 21 * 60)
        guard case .submit(let retry)? = machine.responseReceived(1, .rejected(Self.expired)).last else { Issue.record("no retry"); return }
        #expect(machine.goAway(reason: "Shutdown") == [.record(.goAway(reason: "Shutdown")), .report(.draining(reason: "GOAWAY Shutdown"))], "no close while the retry is being submitted")
        #expect(machine.streamOpened(retry, as: 3, now: Self.start) == [], "the sweep is armed already")
        #expect(machine.streamClosed(3, errorCode: .refusedStream) == [.record(.streamRefused), .resume(1, .notProcessed("stream refused unprocessed")), .close])

        var first = Self.ready(tokenSource: source)
        _ = try submitted(&first, 1, as: 1)
        clock.advance(by: 21 * 60)
        _ = first.goAway(reason: "Shutdown")
        #expect(first.responseReceived(1, .rejected(Self.expired)) == [.resume(1, .retryElsewhere(Self.expired)), .close], "GOAWAY first: the retry goes to another connection")
        #expect(first.requestArrived(2, now: Self.start) == [.resume(2, .notProcessed("the connection is no longer taking requests"))])
    }

    @Test("a timeout sweep racing an answer: whichever comes first settles the request, the other finds nothing")
    func sweepRacesAnswer() {
        var machine = Self.ready(tokenSource: nil)
        let one = Machine.Submission(context: 1, token: nil, hasRetriedAfterExpiry: false)
        let two = Machine.Submission(context: 2, token: nil, hasRetriedAfterExpiry: false)
        _ = machine.requestArrived(1, now: Self.start)
        _ = machine.streamOpened(one, as: 1, now: Self.start)
        _ = machine.requestArrived(2, now: Self.start)
        #expect(machine.streamOpened(two, as: 3, now: Self.start + .milliseconds(500)) == [], "one sweep at a time")
        let failure = APNsSendError(.timedOut, .unknown, "no answer within 1 s; the stream was reset")
        #expect(machine.sweepDue(now: Self.start + .seconds(1)) == [.record(.timedOut), .resetStream(1), .resume(1, .failed(failure)), .armTimeoutSweep(in: .milliseconds(100))])
        #expect(machine.responseReceived(1, Self.accepted) == [], "the answer after the timeout finds nothing")
        #expect(machine.streamClosed(1, errorCode: .cancel) == [])
        #expect(machine.responseReceived(3, Self.accepted) == [.resume(2, .response(Self.accepted))], "the answer before the timeout wins")
        #expect(machine.sweepDue(now: Self.start + .seconds(2)) == [], "and the sweep after it finds nothing, and stops")
        #expect(!machine.sweepArmed)
    }

    @Test("idle PINGs: sent after the interval, one at a time; an answer records the round trip; silence replaces the connection")
    func pings() {
        var machine = Self.ready(tokenSource: nil)
        #expect(machine.healthCheckDue(now: Self.start + .seconds(30)) == [.scheduleHealthCheck(in: .seconds(60))])
        #expect(machine.healthCheckDue(now: Self.start + .seconds(60)) == [.sendPing(1, timeout: .seconds(10)), .scheduleHealthCheck(in: .seconds(60))])
        #expect(machine.healthCheckDue(now: Self.start + .seconds(120)) == [.scheduleHealthCheck(in: .seconds(60))], "one PING at a time")
        #expect(machine.pingAcknowledged(7, now: Self.start + .seconds(61)) == [], "an unknown payload is ignored")
        #expect(machine.pingAcknowledged(1, now: Self.start + .seconds(61)) == [.record(.pingRoundTrip(.seconds(1)))])
        #expect(machine.pingTimeoutDue(1) == [], "answered in time")
        machine.framesReceived(now: Self.start + .seconds(100))
        #expect(machine.healthCheckDue(now: Self.start + .seconds(130)) == [.scheduleHealthCheck(in: .seconds(60))], "frames count as life")
        _ = machine.healthCheckDue(now: Self.start + .seconds(160))
        #expect(machine.pingTimeoutDue(2) == [.record(.pingTimeout), .closeAbruptly(reason: "PING unanswered within 10 s")])
    }

    @Test("closing: requests on the wire fail as possibly processed; retirement closes once idle; a failed attempt is no ready connection")
    func closing() {
        var machine = Self.ready(tokenSource: nil)
        for (context, stream) in [(1, Int32(1)), (2, 3)] {
            let submission = Machine.Submission(context: context, token: nil, hasRetriedAfterExpiry: false)
            _ = machine.requestArrived(context, now: Self.start)
            _ = machine.streamOpened(submission, as: stream, now: Self.start)
        }
        #expect(machine.retire(reason: "client shutdown") == [.report(.draining(reason: "client shutdown"))])
        #expect(machine.responseReceived(1, Self.accepted) == [.resume(1, .response(Self.accepted))])
        let lost = APNsSendError(.connectionLost, .unknown, "the connection closed before APNs answered")
        #expect(machine.closed(nil) == [.resume(2, .failed(lost)), .report(.closed(nil, wasReady: true))])
        #expect(machine.closed(nil) == [], "closed once")

        var attempt = Machine(timing: Self.timing, tokenSource: nil, maximumStreams: nil)
        let refused = APNsSendError(.connectFailed, .notProcessed, "refused")
        #expect(attempt.connectFailed(refused) == [.report(.closed(refused, wasReady: false))])
        #expect(attempt.closed(nil) == [])

        var session = Self.ready(tokenSource: nil)
        let submission = Machine.Submission(context: 5, token: nil, hasRetriedAfterExpiry: false)
        _ = session.requestArrived(5, now: Self.start)
        #expect(session.submitFailed(submission, .invalidRequest("bad header")).first == .resume(5, .failed(APNsSendError(.invalidRequest, .notProcessed, "the request cannot be sent: bad header"))))
        #expect(session.phase == .ready, "a request that cannot be sent fails alone")
        _ = session.requestArrived(6, now: Self.start)
        let refusedStream = session.submitFailed(Machine.Submission(context: 6, token: nil, hasRetriedAfterExpiry: false), .sessionRefused("no more streams"))
        #expect(refusedStream == [.report(.draining(reason: "HTTP/2 refused a new stream")), .close, .resume(6, .notProcessed("cannot submit: no more streams"))])
    }

    @Test("recycle and credential reasons: the connection drains, or the pool hears the credential is refused")
    func connectionReasons() {
        var machine = Self.ready(tokenSource: nil)
        for (context, stream) in [(1, Int32(1)), (2, 3), (3, 5)] {
            _ = machine.requestArrived(context, now: Self.start)
            _ = machine.streamOpened(Machine.Submission(context: context, token: nil, hasRetriedAfterExpiry: false), as: stream, now: Self.start)
        }
        let forbidden = APNsRejection(status: 403, reason: .badCertificate)
        #expect(machine.responseReceived(1, .rejected(forbidden)) == [.report(.credentialRejected(.badCertificate)), .resume(1, .response(.rejected(forbidden)))])
        let shutdown = APNsRejection(status: 503, reason: .shutdown)
        #expect(machine.responseReceived(3, .rejected(shutdown)) == [.record(.recycled("Shutdown")), .report(.draining(reason: "Shutdown")), .resume(2, .retryElsewhere(shutdown))])
        #expect(machine.streamClosed(5, errorCode: .internalError).last == .close, "the last stream closes the draining connection")
    }

    @Test("random event orders: every request is answered exactly once, the close comes once and only when idle", arguments: 0..<40)
    func randomOrders(seed: UInt64) throws {
        var random = SeededGenerator(seed: seed)
        var machine = Self.ready(tokenSource: source)
        var resumed: [Int: Int] = [:]
        var waiting: [Machine.Submission] = []
        var nextContext = 1
        var nextStream: Int32 = 1
        var now = Self.start
        var closes = 0
        func run(_ actions: Machine.Actions) {
            for action in actions {
                switch action {
                case .resume(let context, _): resumed[context, default: 0] += 1
                case .submit(let submission): waiting.append(submission)
                case .close: closes += 1
                default: break
                }
            }
        }
        for _ in 0..<200 {
            switch Int.random(in: 0..<10, using: &random) {
            case 0, 1:
                run(machine.requestArrived(nextContext, now: now))
                nextContext += 1
            case 2...3 where !waiting.isEmpty:
                let submission = waiting.removeFirst()
                if Int.random(in: 0..<8, using: &random) == 0 {
                    run(machine.submitFailed(submission, .sessionRefused("refused")))
                } else {
                    run(machine.streamOpened(submission, as: nextStream, now: now))
                    nextStream += 2
                }
            case 4, 5, 6:
                guard let streamID = machine.streams.ids.randomElement(using: &random) else { continue }
                let reasons: [APNsResponse] = [Self.accepted, .rejected(Self.expired), .rejected(APNsRejection(status: 400, reason: .badDeviceToken)), .rejected(APNsRejection(status: 429, reason: .tooManyProviderTokenUpdates))]
                if Bool.random(using: &random) {
                    run(machine.responseReceived(streamID, reasons.randomElement(using: &random)!))
                } else {
                    run(machine.streamClosed(streamID, errorCode: Bool.random(using: &random) ? .refusedStream : .cancel))
                }
            case 7:
                now = now + .milliseconds(Int64.random(in: 0...700, using: &random))
                clock.advance(by: Double.random(in: 0...900, using: &random))
                run(machine.sweepDue(now: now))
            case 8 where Int.random(in: 0..<10, using: &random) == 0:
                run(machine.goAway(reason: "Shutdown"))
            default:
                run(machine.responseReceived(Int32.random(in: 1...nextStream, using: &random), Self.accepted))  // stale or live
            }
            #expect(closes <= 1)
            if closes == 1 { #expect(machine.streams.isEmpty && machine.submitting == 0 && waiting.isEmpty, "closed while busy") }
        }
        for submission in waiting { run(machine.submitFailed(submission, .sessionRefused("closing"))) }
        run(machine.closed(nil))
        #expect(resumed.count == nextContext - 1, "every request was answered")
        #expect(resumed.values.allSatisfy { $0 == 1 }, "no request was answered twice: \(resumed.filter { $0.value != 1 })")
    }

    // MARK: Helpers

    static func ready(tokenSource: ProviderTokenSource?) -> Machine {
        var machine = Machine(timing: timing, tokenSource: tokenSource, maximumStreams: nil)
        _ = machine.connected(now: start)
        _ = machine.serverSettings(maxConcurrentStreams: 1000)
        return machine
    }

    /// Sends `context` and opens its stream as `streamID`; returns the submission.
    func submitted(_ machine: inout Machine, _ context: Int, as streamID: Int32) throws -> Machine.Submission {
        guard case .submit(let submission)? = machine.requestArrived(context, now: Self.start).last else {
            throw ConfigurationError(setting: "test", problem: "request \(context) was not submitted")
        }
        _ = machine.streamOpened(submission, as: streamID, now: Self.start)
        return submission
    }
}
