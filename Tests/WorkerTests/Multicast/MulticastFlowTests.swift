import AMQP
import APNsCore
import Foundation
import MockAPNs
import Testing
import TestSupport
@testable import Worker
import WorkerConfiguration

@Suite("Multicast jobs end to end (real RabbitMQ, mock APNs)", .serialized, .io)
struct MulticastFlowTests {
    /// The apns-ids the worker derives for `tokens` of job `id`, as the mock records them.
    static func apnsIDs(_ id: String, _ tokens: [String]) throws -> Set<String> {
        Set(try tokens.map { APNsID.derived(fromJobID: id, token: try DeviceToken(hex: $0)).value })
    }

    /// Multicast results until they answer `count` tokens together, or for 10 s neither a result came
    /// nor the mock answered a request. A job publishes its one result at its end, so the results queue
    /// alone stays quiet while it runs: under ThreadSanitizer with every suite at once, the last two of
    /// three rate-limited jobs on two permits had not ended 10 s after the first one.
    static func results(_ harness: WorkerHarness, answering count: Int) async throws -> [JobResult] {
        let recorder = harness.mock.server.recorder
        return try await harness.drain(harness.settings.topology.resultsQueue!, idle: .seconds(10), progress: { recorder.snapshot.requests }) { messages in
            messages.compactMap { try? JobResult.decode($0.body) }.reduce(0) { $0 + ($1.tokens?.answered ?? 0) } >= count
        }.map { try JobResult.decode($0.body) }
    }

    @Test("1,000 tokens in one job: one result with counts, an entry per token not delivered, each token pushed once under its own apns-id")
    func summary() async throws {
        let harness = try await WorkerHarness.make()
        let worker = try await harness.startWorker()
        let good = (0..<950).map { _ in JobFactory.token() }
        let dead = (0..<30).map { _ in JobFactory.token("dead") }
        let unknown = (0..<10).map { _ in JobFactory.token("bad0") }
        let listed = good + dead + unknown + ["not-a-token", "abc"] + good.prefix(5)
        try await harness.publish([JobFactory.multicast(id: "multi-1", tokens: listed.shuffled()), JobFactory.alert(id: "single-1")])
        let results = try await harness.results(count: 2)
        try await worker.stop()

        let single = try #require(results.first { $0.id == "single-1" })
        #expect(single.status == .delivered)
        let result = try #require(results.first { $0.id == "multi-1" })
        #expect(result.status == .partial)
        #expect(result.routingKey == "result.multicast.partial")
        #expect(result.tokens?.delivered == 950)
        #expect(result.tokens?.rejected == 42)
        #expect(result.tokens?.repeated == 5)
        #expect(result.tokens?.retrying == 0)
        #expect(result.deviceToken == nil)
        #expect(result.attempts == 1)
        let failures = result.failures ?? []
        #expect(failures.count == 42)
        let unregistered = failures.filter { $0.reason == "Unregistered" }
        #expect(Set(unregistered.map(\.deviceToken)) == Set(dead))
        #expect(unregistered.allSatisfy { $0.timestamp == DeviceRegistry.prefixUnregisteredMilliseconds && $0.httpStatus == 410 && $0.status == .rejected })
        #expect(Set(failures.filter { $0.reason == "BadDeviceToken" }.map(\.deviceToken)).isSuperset(of: unknown))
        #expect(failures.filter { $0.reason == "BadDeviceToken" }.count == 12)
        let recorded = harness.mock.server.recorder.snapshot
        #expect(recorded.accepted == 951)
        #expect(recorded.duplicateAPNsIDs.isEmpty)
        #expect(Set(recorded.acceptedByAPNsID.keys).isSuperset(of: try Self.apnsIDs("multi-1", good)))
        #expect(recorded.requests == 991, "each valid token once, and the single job")
        await harness.tearDown()
    }

    @Test("senders held to a bulk limit of 2 and lending permits to rate waits: every token sent once, every permit given back")
    func sendersGiveEveryPermitBack() async throws {
        let harness = try await WorkerHarness.make(setup: {
            $0.worker.maxConcurrentJobs = 40
            $0.worker.multicastPacing = false
            $0.worker.fleetSize = 1
            $0.credentials[0].rateLimit = 400
        })
        let worker = try await harness.startWorker()
        let permits = worker.service.shared.permits
        // Ten senders a job over two permits: each gives its permit back before every token (the limit
        // was lowered under it) and while it waits for its moment (400/s for 300 tokens: 0.75 s).
        permits.setBulkLimit(2)
        let jobs = (0..<3).map { index in (id: "paced-\(index)", tokens: (0..<100).map { _ in JobFactory.token() }) }
        try await harness.publish(jobs.map { JobFactory.multicast(id: $0.id, tokens: $0.tokens) })
        let results = try await Self.results(harness, answering: 300)
        #expect(permits.inUse == 0, "a permit still held after every job ended")
        #expect(permits.waiting == 0, "a wait left behind")
        try await worker.stop()

        #expect(Set(results.compactMap(\.id)) == Set(jobs.map(\.id)))
        #expect(results.allSatisfy { $0.status == .delivered && $0.tokens?.delivered == 100 })
        let recorded = harness.mock.server.recorder.snapshot
        #expect(recorded.accepted == 300 && recorded.duplicateAPNsIDs.isEmpty)
        await harness.tearDown()
    }

    @Test("503 for some tokens: a smaller retry job holds only those; no token is answered twice")
    func transientTokensRetry() async throws {
        let harness = try await WorkerHarness.make(mockSetup: {
            $0.faults.forcedReason = "ServiceUnavailable"
            $0.faults.forcedReasonCount = 40
        }, setup: {
            // The mock allows one stream until a push is accepted, and the first 40 answers are 503s. In a
            // loaded `make test` the first pass once published no result (the test took 7 s, not 1): most
            // likely the tokens queued behind the 503s outwaited the harness's 3 s timeout, so the pass
            // answered none. A longer wait keeps the passes as this test reads them.
            $0.apns.requestTimeout = .seconds(20)
        })
        let worker = try await harness.startWorker()
        let tokens = (0..<200).map { _ in JobFactory.token() }
        try await harness.publish([JobFactory.multicast(id: "multi-2", tokens: tokens)])
        let results = try await Self.results(harness, answering: 200)
        try await worker.stop()
        #expect(results.count == 2, "\(results.map { "attempts \($0.attempts): \($0.tokens.map { "\($0)" } ?? "-")" })")
        let first = try #require(results.first { $0.attempts == 1 })
        let second = try #require(results.first { $0.attempts == 2 })
        #expect(first.tokens?.delivered == 160)
        #expect(first.tokens?.retrying == 40)
        #expect(first.status == .delivered)
        #expect(second.tokens?.delivered == 40)
        #expect(second.tokens?.retrying == 0)
        let recorded = harness.mock.server.recorder.snapshot
        #expect(recorded.accepted == 200)
        #expect(recorded.duplicateAPNsIDs.isEmpty)
        #expect(Set(recorded.acceptedByAPNsID.keys) == (try Self.apnsIDs("multi-2", tokens)))
        #expect(recorded.rejectedByReason["ServiceUnavailable"] == 40)
        await harness.tearDown()
    }

    @Test("retries used up: failed entries, and a dead letter holding only the tokens that failed")
    func exhaustion() async throws {
        let harness = try await WorkerHarness.make(mockSetup: {
            $0.faults.forcedReason = "ServiceUnavailable"
            $0.faults.forcedReasonCount = 30
        }, setup: { $0.worker.maxAttempts = 3 })
        let worker = try await harness.startWorker()
        // 10 tokens: 10 + 10 + 10 forced 503s use up the three attempts of every one of them.
        let tokens = (0..<10).map { _ in JobFactory.token() }
        try await harness.publish([JobFactory.multicast(id: "multi-3", tokens: tokens)])
        let results = try await harness.results(count: 1, idle: .seconds(10))
        let dead = try await harness.drain(harness.settings.topology.deadQueue, count: 1)
        try await worker.stop()
        let result = try #require(results.first)
        #expect(result.status == .failed)
        #expect(result.tokens?.failed == 10)
        #expect(result.attempts == 3)
        #expect(result.failures?.allSatisfy { $0.reason == "ServiceUnavailable" && $0.httpStatus == 503 } == true)
        let letter = try #require(dead.first)
        let held = try JobDecoder.decode(JobEnvelope(body: letter.body)).get().multicast?.tokens.map(\.hexString)
        #expect(Set(held ?? []) == Set(tokens))
        #expect(letter.properties.headers["retry-attempt"] == .int(3))
        await harness.tearDown()
    }

    @Test("a credential refused mid-job: it pauses, the tokens not sent wait in a retry copy that uses no attempt, then all are delivered")
    func credentialRefused() async throws {
        let harness = try await WorkerHarness.make(mockSetup: {
            $0.faults.forcedReason = "InvalidProviderToken"
            $0.faults.forcedReasonCount = 1
        })
        let worker = try await harness.startWorker()
        let tokens = (0..<50).map { _ in JobFactory.token() }
        try await harness.publish([JobFactory.multicast(id: "multi-6", tokens: tokens)])
        let results = try await Self.results(harness, answering: 50)
        let dead = try await harness.drain(harness.settings.topology.deadQueue, count: 1, idle: .milliseconds(500))
        try await worker.stop()
        #expect(results.reduce(0) { $0 + ($1.tokens?.delivered ?? 0) } == 50)
        #expect(results.allSatisfy { $0.attempts == 1 }, "\(results.map(\.attempts)): the refused pass counted no attempt")
        #expect(dead.isEmpty)
        #expect(harness.mock.server.recorder.snapshot.rejectedByReason["InvalidProviderToken"] == 1)
        #expect(harness.mock.server.recorder.snapshot.duplicateAPNsIDs.isEmpty)
        await harness.tearDown()
    }

    @Test("results per token: one result per token, routed like single jobs'")
    func perToken() async throws {
        let harness = try await WorkerHarness.make()
        let worker = try await harness.startWorker()
        let tokens = (0..<45).map { _ in JobFactory.token() } + (0..<5).map { _ in JobFactory.token("dead") }
        try await harness.publish([JobFactory.multicast(id: "multi-4", tokens: tokens, extra: #","results":"per_token""#)])
        let results = try await harness.results(count: 50)
        try await worker.stop()
        #expect(results.count == 50)
        #expect(Set(results.compactMap(\.deviceToken)) == Set(tokens))
        #expect(results.allSatisfy { $0.id == "multi-4" && $0.tokens == nil })
        #expect(results.filter { $0.status == .delivered }.count == 45)
        #expect(results.filter { $0.routingKey == "result.rejected.Unregistered" }.count == 5)
        #expect(Set(results.compactMap(\.apnsID)) == (try Self.apnsIDs("multi-4", tokens)))
        await harness.tearDown()
    }

    @Test("a job's deadline already past: every token expired, none sent, a dead letter")
    func expired() async throws {
        let harness = try await WorkerHarness.make()
        let worker = try await harness.startWorker()
        try await harness.publish([JobFactory.multicast(id: "multi-5", tokens: (0..<20).map { _ in JobFactory.token() }, extra: #","deadline":1000"#)])
        let results = try await harness.results(count: 1)
        let dead = try await harness.drain(harness.settings.topology.deadQueue, count: 1)
        try await worker.stop()
        #expect(results.first?.status == .expired)
        #expect(results.first?.tokens?.expired == 20)
        #expect(dead.count == 1)
        #expect(harness.mock.server.recorder.snapshot.requests == 0)
        await harness.tearDown()
    }
}
