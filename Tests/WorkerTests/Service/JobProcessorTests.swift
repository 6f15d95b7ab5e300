import AMQP
import APNsClient
import APNsCore
import DeadLetterTools
import Foundation
import Logging
import NIOConcurrencyHelpers
import Testing
import TestSupport
@testable import Worker
import WorkerConfiguration

/// The processor through fakes of the broker and APNs: every path from a delivery to its ack or requeue,
/// including the ones a real run reaches only by fault injection (a reconnect while APNs answers, a
/// result the broker returns, a redelivery that overtakes its first delivery).
@Suite("Job processor (fake broker and APNs, no I/O)")
struct JobProcessorTests {
    static let token = String(repeating: "ab", count: 32)

    static func settings() throws -> WorkerSettings {
        var settings = WorkerSettings()
        settings.worker.name = "unit"
        settings.worker.maxAttempts = 3
        settings.topology.retryTiers = [.seconds(5), .seconds(30)]
        settings.credentials = [
            CredentialSettings(
                name: "team-one",
                kind: .token(teamID: "TEAMID0001", keyID: "TESTKEY001", keyFile: try Fixtures.privateCopy(of: "keys/AuthKey_TESTKEY001.p8"), allowInsecureKeyPermissions: false, refreshAge: 50 * 60),
                environment: .development, topics: ["com.example.app"]
            ),
        ]
        return settings
    }

    static func processor(
        broker: FakeBroker, sender: FakeSender, gate: CredentialGate = CredentialGate(), onMissingExchange: @escaping @Sendable () async -> Void = {}
    ) throws -> JobProcessor {
        let settings = try settings()
        var logger = Logger(label: "unit")
        logger.logLevel = .critical
        return JobProcessor(
            broker: broker, sender: sender, shared: SharedJobState(settings: settings, credentials: try CredentialRegistry.load(settings)), settings: settings, gate: gate,
            logger: logger, metrics: WorkerMetrics(), unroutableBackoff: .zero,
            nackRetry: NackRetry(initialDelay: .zero, maximumDelay: .zero, attempts: 3), onMissingExchange: onMissingExchange
        )
    }

    static func delivery(
        _ body: String, tag: UInt64 = 1, redelivered: Bool = false, generation: UInt64 = 1, replyTo: String? = nil, headers: [String: AMQPFieldValue] = [:]
    ) -> AMQPDelivery {
        var properties = AMQPProperties(replyTo: replyTo)
        properties.headers = headers
        return AMQPDelivery(
            message: AMQPMessage(body: Array(body.utf8), properties: properties), deliveryTag: tag,
            redelivered: redelivered, exchange: "apns.jobs", routingKey: "send", generation: generation
        )
    }

    static func job(_ id: String) -> String {
        #"{"id":"\#(id)","device_token":"\#(token)","topic":"com.example.app","payload":{"aps":{"alert":"hi"}}}"#
    }

    /// A multicast job to one device: one that ``JobProcessor/begin(_:settled:)`` leaves to a task.
    static func multicastJob(_ id: String) -> String {
        #"{"id":"\#(id)","topic":"com.example.app","payload":{"aps":{}},"device_tokens":["\#(token)"]}"#
    }

    static func results(_ broker: FakeBroker) -> [JobResult] {
        broker.published.filter { $0.exchange == "apns.results" || $0.exchange == "" }.compactMap { try? JobResult.decode($0.message.body) }
    }

    @Test("a valid job: one send, its result confirmed on the results exchange with its correlation id, then the ack")
    func delivered() async throws {
        let broker = FakeBroker()
        let sender = FakeSender()
        try await Self.processor(broker: broker, sender: sender).process(Self.delivery(Self.job("j-1"), tag: 7))
        #expect(sender.sends == 1)
        #expect(broker.published.map(\.routingKey) == ["result.delivered"])
        #expect(broker.published.first?.message.properties.correlationID == "j-1")
        #expect(Self.results(broker).first?.status == .delivered)
        #expect(broker.acked == [7])
        #expect(broker.rejected.isEmpty)
    }

    @Test("settled runs once per delivery, after its ack, its requeue, or at once for a delivery whose connection is gone")
    func settledOnce() async throws {
        // Acked; returned (no route: requeued after the backoff); superseded (nothing to settle).
        let returning = FakeBroker { _ in .success(.returned(replyCode: 312, replyText: "NO_ROUTE")) }
        let superseded = FakeBroker()
        superseded.reconnect()
        for (broker, settles) in [(FakeBroker(), "acked"), (returning, "requeued"), (superseded, "dropped")] {
            let processor = try Self.processor(broker: broker, sender: FakeSender())
            let calls = NIOLockedValueBox<[(acked: [UInt64], rejected: Int)]>([])
            await processor.process(Self.delivery(Self.job("j-1"), tag: 4, generation: 1)) {
                calls.withLockedValue { $0.append((broker.acked, broker.rejected.count)) }
            }
            try await Condition.wait("the job is settled (\(settles))") { !calls.withLockedValue { $0.isEmpty } }
            // Another job through the same processor: a second call for the first would come before its end.
            await processor.process(Self.delivery(Self.job("j-2"), tag: 5, generation: 1))
            let seen = calls.withLockedValue { $0 }
            #expect(seen.count == 1, "settled once (\(settles))")
            switch settles {
            case "acked": #expect(seen.first?.acked == [4], "after the ack")
            case "requeued": #expect(seen.first?.rejected == 1 && seen.first?.acked == [], "after the requeue")
            default: #expect(seen.first?.acked == [] && seen.first?.rejected == 0)
            }
        }
    }

    @Test("a delivery of a connection that is gone is dropped before anything: no send, no publish, no ack")
    func superseded() async throws {
        let broker = FakeBroker()
        broker.reconnect()
        let sender = FakeSender()
        try await Self.processor(broker: broker, sender: sender).process(Self.delivery(Self.job("j-1"), generation: 1))
        #expect(sender.sends == 0 && broker.published.isEmpty && broker.acked.isEmpty && broker.rejected.isEmpty)
    }

    @Test("a job left to a task whose connection goes before the task runs is dropped there: no send")
    func supersededBeforeItsTask() async throws {
        let broker = FakeBroker()
        let sender = FakeSender()
        let processor = try Self.processor(broker: broker, sender: sender)
        let multicast = Self.delivery(Self.multicastJob("m-1"))
        let settled = OneTimeSignal()
        let step = try #require(processor.begin(multicast) { settled.fire() }, "a multicast job is left to a task")
        broker.reconnect()
        await processor.proceed(step, of: multicast) { settled.fire() }
        await settled.wait()
        #expect(sender.sends == 0, "its redelivery does the job")
        #expect(broker.published.isEmpty && broker.acked.isEmpty && broker.rejected.isEmpty)
    }

    @Test("the connection goes while APNs answers: nothing published; the redelivery publishes that answer without a second push")
    func reconnectWhileAtAPNs() async throws {
        let broker = FakeBroker()
        let sender = FakeSender(duringSend: { broker.reconnect() })
        let processor = try Self.processor(broker: broker, sender: sender)
        await processor.process(Self.delivery(Self.job("j-1"), tag: 3, generation: 1))
        #expect(sender.sends == 1)
        #expect(broker.published.isEmpty, "the broker requeued the delivery; publishing now would duplicate")
        #expect(processor.answered.count == 1)
        await processor.process(Self.delivery(Self.job("j-1"), tag: 1, redelivered: true, generation: 2))
        #expect(sender.sends == 1, "no second push")
        #expect(Self.results(broker).map(\.status) == [.delivered])
        #expect(broker.acked == [1])
        #expect(processor.answered.count == 1, "kept: this ack can be lost too")
    }

    @Test("an ack lost with the node (acked, then redelivered): the redelivery publishes the answer again, no second push")
    func ackLost() async throws {
        let broker = FakeBroker()
        let sender = FakeSender()
        let processor = try Self.processor(broker: broker, sender: sender)
        await processor.process(Self.delivery(Self.job("j-1"), tag: 1, generation: 1))
        #expect(broker.acked == [1] && sender.sends == 1)
        await processor.process(Self.delivery(Self.job("j-1"), tag: 2, redelivered: true, generation: 1))
        #expect(sender.sends == 1, "no second push")
        #expect(Self.results(broker).map(\.status) == [.delivered, .delivered], "its result again: the first may be the lost one's")
        #expect(broker.acked == [1, 2])
    }

    @Test("a replayed dead letter: answered from memory if APNs had accepted it, pushed again if it had failed")
    func replayedDeadLetters() async throws {
        let broker = FakeBroker()
        let accepted = FakeSender()
        let processor = try Self.processor(broker: broker, sender: accepted)
        await processor.process(Self.delivery(Self.job("j-ok"), tag: 1))
        let replay: [String: AMQPFieldValue] = [ReplayedJob.replayedAtHeader: .string("2026-11-25T10:00:00.000Z")]
        await processor.process(Self.delivery(Self.job("j-ok"), tag: 2, headers: replay))
        #expect(accepted.sends == 1, "APNs accepted it: a replay publishes the result, no second push")

        let failing = FakeSender(answer: { _ in .success(.rejected(APNsRejection(status: 400, reason: .badDeviceToken))) })
        let second = try Self.processor(broker: FakeBroker(), sender: failing)
        await second.process(Self.delivery(Self.job("j-bad"), tag: 1))
        await second.process(Self.delivery(Self.job("j-bad"), tag: 2, headers: replay))
        #expect(failing.sends == 2, "a replayed failure is a request for another try")
    }

    @Test("a job its producer publishes again (not a redelivery) is a new push, even with the same id and body")
    func publishedAgainIsPushedAgain() async throws {
        let broker = FakeBroker()
        let sender = FakeSender()
        let processor = try Self.processor(broker: broker, sender: sender)
        await processor.process(Self.delivery(Self.job("j-1"), tag: 1, generation: 1))
        await processor.process(Self.delivery(Self.job("j-1"), tag: 2, generation: 1))
        #expect(sender.sends == 2)
    }

    @Test("a publish whose outcome is unknown (connection lost): requeued, remembered, and answered from memory next time")
    func publishLost() async throws {
        let lose = LockedFlag(true)
        let broker = FakeBroker { _ in
            lose.take() ? .failure(AMQPError(.connectionLost, operation: "publish", message: "gone")) : .success(.confirmed)
        }
        let sender = FakeSender()
        let processor = try Self.processor(broker: broker, sender: sender)
        await processor.process(Self.delivery(Self.job("j-2"), tag: 4))
        #expect(broker.acked.isEmpty)
        #expect(broker.rejected.map(\.requeue) == [true])
        await processor.process(Self.delivery(Self.job("j-2"), tag: 5, redelivered: true))
        #expect(sender.sends == 1)
        #expect(broker.acked == [5])
    }

    @Test("a result the broker returns (no queue bound): the job is requeued after the backoff, not acked", arguments: [
        Result<AMQPPublishOutcome, AMQPError>.success(.returned(replyCode: 312, replyText: "NO_ROUTE")),
        .failure(AMQPError(.invalidArgument, operation: "publish", message: "the message cannot be encoded")),
    ])
    func unroutable(outcome: Result<AMQPPublishOutcome, AMQPError>) async throws {
        let broker = FakeBroker { _ in outcome }
        let missing = LockedFlag(false)
        let processor = try Self.processor(broker: broker, sender: FakeSender()) { missing.set() }
        await processor.process(Self.delivery(Self.job("j-3"), tag: 9))
        #expect(broker.acked.isEmpty)
        #expect(broker.rejected.map(\.requeue) == [true])
        #expect(!missing.value, "only a 404 means the exchange is missing")
    }

    @Test("a nack (a quorum queue electing a leader): the result is published again in place until confirmed, then acked; one push")
    func nackRepublishedInPlace() async throws {
        let answers = NIOLockedValueBox(0)
        let broker = FakeBroker { _ in
            answers.withLockedValue { count in
                count += 1
                return count <= 2 ? .success(.nacked) : .success(.confirmed)
            }
        }
        let sender = FakeSender()
        try await Self.processor(broker: broker, sender: sender).process(Self.delivery(Self.job("j-nack"), tag: 4))
        #expect(sender.sends == 1, "a nack is not a reason to push again")
        #expect(broker.published.map(\.routingKey) == ["result.delivered", "result.delivered", "result.delivered"])
        #expect(broker.acked == [4])
        #expect(broker.rejected.isEmpty, "the job kept its delivery through the nacks")
    }

    @Test("a nack that outlasts every republish: the job goes back to the queue on a new connection, not acked")
    func nackExhausted() async throws {
        let broker = FakeBroker { _ in .success(.nacked) }
        let processor = try Self.processor(broker: broker, sender: FakeSender())
        await processor.process(Self.delivery(Self.job("j-nack-2"), tag: 6))
        #expect(broker.published.count == 4, "the first publish and three republishes")
        #expect(broker.acked.isEmpty)
        #expect(broker.reopenRequests == [1] && broker.reopened == [1], "the channel that kept being nacked is replaced")
        #expect(broker.rejected.isEmpty, "the broker requeues the delivery with its connection")
        // A job of the new connection nacked the same way within the minute: no second reopen.
        await processor.process(Self.delivery(Self.job("j-nack-3"), tag: 7, generation: 2))
        #expect(broker.reopenRequests == [1], "at most one reopen a minute")
        #expect(broker.rejected.map(\.requeue) == [true], "that job goes back to the queue on its own connection")
    }

    @Test("on RabbitMQ 3.12.5 and later a nack that outlasts every republish gives the job back on its own connection: no reopen")
    func nackExhaustedOnALaterRelease() async throws {
        let broker = FakeBroker { _ in .success(.nacked) }
        broker.serverVersion = RabbitMQVersion(4, 0, 5)
        let processor = try Self.processor(broker: broker, sender: FakeSender())
        await processor.process(Self.delivery(Self.job("j-nack-4"), tag: 8))
        #expect(broker.acked.isEmpty)
        #expect(broker.reopenRequests.isEmpty, "a 4.0 channel finds the new leader by itself")
        #expect(broker.rejected.map(\.requeue) == [true])
    }

    @Test("republishing waits longer each time, up to its maximum")
    func nackBackoff() {
        let retry = NackRetry.standard
        #expect((1...8).map { retry.delay(before: $0) } == [.milliseconds(100), .milliseconds(200), .milliseconds(400), .milliseconds(800), .milliseconds(1600), .seconds(2), .seconds(2), .seconds(2)])
    }

    @Test("the nack log line: one per interval, saying how many were held back")
    func nackLogThrottle() {
        let throttle = Throttle(every: .seconds(1))
        let start = ContinuousClock.now
        #expect(throttle.admit(now: start) == 0)
        #expect(throttle.admit(now: start + .milliseconds(300)) == nil)
        #expect(throttle.admit(now: start + .milliseconds(600)) == nil)
        #expect(throttle.admit(now: start + .milliseconds(1100)) == 2)
    }

    @Test("the retry log line: one per tier per interval, each tier on its own")
    func retryLogPerTier() {
        let log = RetryLog()
        let start = ContinuousClock.now
        #expect(log.admit(tier: "5s", now: start) == 0)
        #expect(log.admit(tier: "30s", now: start + .seconds(1)) == 0, "another tier is not held back by the first")
        #expect(log.admit(tier: "5s", now: start + .seconds(2)) == nil)
        #expect(log.admit(tier: "5s", now: start + .seconds(3)) == nil)
        #expect(log.admit(tier: "5s", now: start + RetryLog.interval) == 2, "the next line says how many were held back")
        #expect(log.admit(tier: "30s", now: start + .seconds(5)) == nil)
    }

    @Test("404 on a publish: the topology is declared again, and the job requeued")
    func missingExchange() async throws {
        // What the client reports when the broker closes the channel for a publish to a missing exchange.
        let broker = FakeBroker { _ in .failure(AMQPError(.connectionLost, operation: "publish", message: "no exchange", brokerReplyCode: 404)) }
        let missing = LockedFlag(false)
        try await Self.processor(broker: broker, sender: FakeSender()) { missing.set() }.process(Self.delivery(Self.job("j-4")))
        #expect(missing.value)
        #expect(broker.rejected.map(\.requeue) == [true])
    }

    @Test("a result for a reply_to queue that is gone goes to the results exchange instead, and the job is acked")
    func replyToFallback() async throws {
        let broker = FakeBroker { published in
            published.exchange == "" ? .success(.returned(replyCode: 312, replyText: "NO_ROUTE")) : .success(.confirmed)
        }
        try await Self.processor(broker: broker, sender: FakeSender()).process(Self.delivery(Self.job("j-5"), tag: 2, replyTo: "rpc.gone"))
        // First to the reply_to queue (returned: no such queue), then to the results exchange.
        #expect(broker.published.map(\.exchange) == ["", "apns.results"])
        #expect(broker.published.map(\.routingKey) == ["rpc.gone", "result.delivered"])
        #expect(broker.acked == [2])
    }

    @Test("a malformed job: a failed result and a dead letter, both confirmed before the ack, and never sent")
    func malformed() async throws {
        let broker = FakeBroker()
        let sender = FakeSender()
        try await Self.processor(broker: broker, sender: sender).process(Self.delivery(#"{"id":"j-6","device_token":"zz","topic":"com.example.app","payload":{}}"#, tag: 6))
        #expect(sender.sends == 0)
        #expect(Set(broker.published.map(\.exchange)) == ["apns.results", "apns.dead"])
        #expect(Self.results(broker).first?.reason == "BadDeviceToken")
        #expect(broker.acked == [6])
    }

    @Test("a transient failure: a retry copy to the first tier, with its attempt counted, then the ack; no result yet")
    func retried() async throws {
        let broker = FakeBroker()
        let sender = FakeSender(answer: { _ in .success(.rejected(APNsRejection(status: 503, reason: .serviceUnavailable))) })
        try await Self.processor(broker: broker, sender: sender).process(Self.delivery(Self.job("j-7"), tag: 8))
        #expect(broker.published.map(\.exchange) == ["apns.retry"])
        #expect(broker.published.first?.message.properties.headers["retry-attempt"] == .int(1))
        #expect(Self.results(broker).isEmpty)
        #expect(broker.acked == [8])
    }

    @Test("a retry copy handed back twice (a tier dead-letters at least once): one push, the second answered from memory")
    func retryCopyTwice() async throws {
        let broker = FakeBroker()
        let unavailableOnce = LockedFlag(true)
        let sender = FakeSender(answer: { _ in
            unavailableOnce.take() ? .success(.rejected(APNsRejection(status: 503, reason: .serviceUnavailable))) : .success(.accepted(APNsAcceptance(apnsID: nil, uniqueID: nil)))
        })
        let processor = try Self.processor(broker: broker, sender: sender)
        await processor.process(Self.delivery(Self.job("j-9"), tag: 1))
        let copy = try #require(broker.published.first { $0.exchange == "apns.retry" }?.message)
        #expect(RetryHeaders.copy(of: copy) != nil)
        for tag: UInt64 in [2, 3] {
            await processor.process(AMQPDelivery(message: copy, deliveryTag: tag, redelivered: false, exchange: "apns.jobs", routingKey: "send", generation: 1))
        }
        #expect(sender.sends == 2, "the original and the copy, not the copy twice")
        #expect(Self.results(broker).map(\.status) == [.delivered, .delivered])
        #expect(broker.acked == [1, 2, 3])
    }

    @Test("a copy postponed with unchanged counts (a refused credential) is a new copy: pushed, not answered with the postponement")
    func postponedCopyIsPushed() async throws {
        let broker = FakeBroker()
        let refusedOnce = LockedFlag(true)
        let sender = FakeSender(answer: { _ in
            refusedOnce.take() ? .success(.rejected(APNsRejection(status: 403, reason: .invalidProviderToken))) : .success(.accepted(APNsAcceptance(apnsID: nil, uniqueID: nil)))
        })
        let gate = CredentialGate()
        let processor = try Self.processor(broker: broker, sender: sender, gate: gate)
        await processor.process(Self.delivery(Self.job("j-10"), tag: 1))
        let postponed = try #require(broker.published.first { $0.exchange == "apns.retry" }?.message)
        #expect(postponed.properties.headers["retry-attempt"] == .int(0), "a refused credential uses no attempt")
        gate.resume("team-one")
        await processor.process(AMQPDelivery(message: postponed, deliveryTag: 2, redelivered: false, exchange: "apns.jobs", routingKey: "send", generation: 1))
        #expect(sender.sends == 2)
        #expect(Self.results(broker).map(\.status) == [.delivered])
    }

    /// Job `id`'s first delivery held at APNs (until `sender.release()`), then the broker's connection
    /// replaced: the broker has requeued that delivery and will redeliver it at once.
    static func firstDeliveryAtAPNsAcrossReconnect(_ id: String) async throws -> (FakeBroker, FakeSender, JobProcessor, Task<Void, Never>) {
        let broker = FakeBroker()
        let sender = FakeSender()
        sender.hold()
        let processor = try processor(broker: broker, sender: sender)
        let first = Task { await processor.process(delivery(job(id), tag: 1, generation: 1)) }
        try await Condition.wait("the first delivery is at APNs", interval: .milliseconds(1)) { sender.waiting == 1 }
        broker.reconnect()
        return (broker, sender, processor, first)
    }

    @Test("a redelivery that overtakes its first delivery waits for it and publishes its answer: one push")
    func redeliveryWaits() async throws {
        let (broker, sender, processor, first) = try await Self.firstDeliveryAtAPNsAcrossReconnect("j-8")
        let second = Task { await processor.process(Self.delivery(Self.job("j-8"), tag: 1, redelivered: true, generation: 2)) }
        try await Condition.wait("the redelivery waits for the first", interval: .milliseconds(1)) { processor.atAPNs.waiting(for: "j-8") == 1 }
        #expect(sender.sends == 1, "the redelivery waits instead of pushing")
        sender.release()
        await first.value
        await second.value
        #expect(sender.sends == 1)
        #expect(Self.results(broker).map(\.status) == [.delivered])
    }

    @Test("a first delivery answered between its redelivery's start and its wait: the redelivery publishes that answer, no second push")
    func firstAnsweredWhileRedeliveryStarts() async throws {
        let (broker, sender, processor, first) = try await Self.firstDeliveryAtAPNsAcrossReconnect("j-9")
        let redelivery = Self.delivery(Self.job("j-9"), tag: 1, redelivered: true, generation: 2)
        let settled = OneTimeSignal()
        // The redelivery's first half runs while nothing is answered yet...
        let step = try #require(processor.begin(redelivery) { settled.fire() }, "a redelivery is left to a task, to wait for its first delivery")
        // ...then the first delivery is answered and settled, before the redelivery's task goes on.
        sender.release()
        await first.value
        await processor.proceed(step, of: redelivery) { settled.fire() }
        await settled.wait()
        #expect(sender.sends == 1, "the redelivery publishes the remembered answer instead of pushing again")
        #expect(Self.results(broker).map(\.status) == [.delivered])
    }
}

/// A flag tests set from fakes' closures.
final class LockedFlag: Sendable {
    private let state: NIOLockedValueBox<Bool>

    init(_ value: Bool) { state = NIOLockedValueBox(value) }

    var value: Bool { state.withLockedValue { $0 } }
    func set() { state.withLockedValue { $0 = true } }
    /// Returns the value and clears it.
    func take() -> Bool { state.withLockedValue { value in defer { value = false }; return value } }
}
