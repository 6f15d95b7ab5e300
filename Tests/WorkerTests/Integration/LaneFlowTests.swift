import AMQP
import Foundation
import MockAPNs
import Testing
import TestSupport
@testable import Worker
import WorkerConfiguration

/// Urgent jobs against a bulk backlog, through a real broker and the mock APNs.
///
/// Each test runs one shard (`worker.shards: 1`): the slots, reservations and shares it counts on are
/// a shard's, and with two the broker decides which shard's window a delivery lands in (a backlog
/// queued before the worker starts fills the first consumer's first), so a handful of slots split in
/// two no longer says what the test means. ShardFlowTests covers two shards.
@Suite("Lanes (real RabbitMQ, mock APNs)", .io)
struct LaneFlowTests {
    @Test("urgent jobs published behind a bulk backlog are answered ahead of it, while APNs answers slowly")
    func urgentOvertakesBulk() async throws {
        // 600 bulk jobs, 8 at once (2 slots only urgent jobs take), 100 ms per answer: the backlog
        // takes about 10 s. With one lane the urgent jobs would wait for all of it at the broker; with
        // their own prefetch but no priority in the worker, behind up to 100 bulk deliveries there
        // (measured: answered after 113 more bulk jobs). With lanes they start at once.
        let harness = try await WorkerHarness.make(mockSetup: { $0.faults.latency = .fixed(milliseconds: 100) }) {
            $0.worker.prefetch = 100
            $0.worker.urgentPrefetch = 4
            $0.worker.maxConcurrentJobs = 8
            $0.worker.shards = 1
        }
        #expect(harness.settings.urgentReservedJobs == 2)
        let bulkIDs = (0..<600).map { "bulk-\($0)" }
        let urgentIDs = (0..<3).map { "urgent-\($0)" }
        try await harness.publish(bulkIDs.map { JobFactory.alert(id: $0) })
        let collector = try await QueueCollector.start(harness, queue: harness.settings.topology.resultsQueue!, name: "\(harness.prefix)results")
        let worker = try await harness.startWorker()
        defer { Task { try? await worker.stop() } }
        try await Condition.wait("the worker answers bulk jobs") { collector.count >= 8 }
        try await harness.publish(urgentIDs.map { JobFactory.alert(id: $0) }, lane: .urgent)
        // Counted once the publish is confirmed, from the mock (its requests are counted on its event
        // loop, ahead of their results): a test's task, or the collector's, can wait seconds for a
        // thread on a loaded machine, and a count read late only loosens the bound.
        let bulkBefore = harness.mock.server.recorder.snapshot.requests
        try await Condition.wait("every job answered", timeout: .seconds(60)) { collector.count >= bulkIDs.count + urgentIDs.count }
        try await worker.stop()
        await collector.stop()

        let results = try collector.messages.map { try JobResult.decode($0.body) }
        #expect(Set(results.compactMap(\.id)) == Set(bulkIDs + urgentIDs) && results.count == 603, "one result each")
        #expect(results.allSatisfy { $0.status == .delivered })
        let order = results.compactMap(\.id)
        for id in urgentIDs {
            let position = try #require(order.firstIndex(of: id))
            // Published when `bulkBefore` bulk jobs had reached APNs: an urgent job is delivered at once
            // (its own prefetch), starts in a reserved slot and is answered within about one round of
            // answers (8 jobs); half of the 100 bulk deliveries it would otherwise wait behind is the
            // bound, so a loaded machine's slower rounds do not fail it.
            #expect(position < bulkBefore + 50, "\(id) was answered after \(position - urgentIDs.count) bulk jobs; \(bulkBefore) were at APNs when it was published")
        }
        #expect(bulkBefore + 50 < bulkIDs.count, "the backlog outlasts the bound, so the bound can fail")
        await harness.tearDown()
    }

    @Test("an urgent job retried after a 503 waits in the urgent lane's own tier, not bulk's")
    func urgentRetryStaysUrgent() async throws {
        let harness = try await WorkerHarness.make(mockSetup: {
            $0.faults.forcedReason = "ServiceUnavailable"
            $0.faults.forcedReasonCount = 1000
        }) {
            $0.topology.retryTiers = [.seconds(30)]
        }
        let worker = try await harness.startWorker()
        defer { Task { try? await worker.stop() } }
        try await harness.publish([JobFactory.alert(id: "urgent-retry")], lane: .urgent)
        let prefix = harness.settings.topology.retryQueuePrefix
        let copies = try await harness.drain(prefix + "urgent.30s", count: 1)
        try await worker.stop()
        #expect(copies.count == 1)
        #expect(copies.first?.properties.headers[RetryHeaders.attempts] == .int(1))
        #expect(try await harness.drain(prefix + "30s", count: 1, idle: .milliseconds(500)).isEmpty, "nothing in bulk's tier")
        await harness.tearDown()
    }

    @Test("fair shares: one team's slow answers and backlog do not hold the slots another team's jobs need")
    func slowTeamDoesNotStarveAnother() async throws {
        // team-one (com.example.app) answers in 1 s, team-two (com.example.other) at once; 6 bulk
        // slots. Both teams' jobs are queued before the worker starts, team-one's 40 ahead of
        // team-two's 20, so nothing hangs on when this test's own task runs. Without shares, team-two's
        // jobs would start only once all 40 of team-one's had, after 34 of its results (40 less the
        // last round of 6); with equal shares, team-two gets every slot team-one frees, or has, until
        // they hold as many (3 each), and its jobs are done within team-one's first round or two.
        // team-one's rounds take 1 s whatever the load and team-two's do not: in a full-suite run with
        // a fuzzer beside it (the test took 55 s, not 14), team-two's 7 rounds of 3 outlasted 7 of
        // team-one's (21 results). The bound sits between that and the 34 without shares.
        let harness = try await WorkerHarness.make(mockSetup: { $0.faults.topicLatency = ["com.example.app": .fixed(milliseconds: 1000)] }) {
            $0.worker.prefetch = 100
            $0.worker.maxConcurrentJobs = 8
            $0.worker.shards = 1
        }
        let slowIDs = (0..<40).map { "one-\($0)" }
        let quickIDs = (0..<20).map { "two-\($0)" }
        try await harness.publish(slowIDs.map { JobFactory.alert(id: $0) })
        try await harness.publish(quickIDs.map { JobFactory.alert(id: $0, topic: "com.example.other") })
        let collector = try await QueueCollector.start(harness, queue: harness.settings.topology.resultsQueue!, name: "\(harness.prefix)results")
        let worker = try await harness.startWorker()
        defer { Task { try? await worker.stop() } }
        try await Condition.wait("every job answered", timeout: .seconds(60)) { collector.count >= slowIDs.count + quickIDs.count }
        try await worker.stop()
        await collector.stop()

        let order = try collector.messages.map { try JobResult.decode($0.body) }.compactMap(\.id)
        #expect(Set(order) == Set(slowIDs + quickIDs) && order.count == 60, "one result each")
        let lastQuick = try #require(order.lastIndex { $0.hasPrefix("two-") })
        let slowBefore = order[..<lastQuick].count { $0.hasPrefix("one-") }
        #expect(slowBefore < 28, "team-two's last job was answered after \(slowBefore) of team-one's")
    }

    @Test("a team lane's jobs do not wait behind another team's backlog in the bulk queue")
    func teamLaneSkipsAnotherTeamsBacklog() async throws {
        // team-one (com.example.app) has 200 jobs queued in the bulk queue and answers in 500 ms, 8 at
        // a time (its prefetch): 12 s of backlog. team-two's 20 jobs published to its own lane after
        // that reach the worker at once, in their own window, and take the slots team-one frees
        // (shares). In the bulk queue they would wait for all 200 (the bulk lane's order at the broker).
        let harness = try await WorkerHarness.make(mockSetup: { $0.faults.topicLatency = ["com.example.app": .fixed(milliseconds: 500)] }) {
            $0.worker.prefetch = 8
            $0.worker.maxConcurrentJobs = 12
            $0.worker.shards = 1
            $0.topology.teamLanes = [TeamLane(name: "two", queue: $0.topology.jobsQueue + ".two")]
        }
        let team = Lane.team("two")
        let slowIDs = (0..<200).map { "one-\($0)" }
        let quickIDs = (0..<20).map { "two-\($0)" }
        try await harness.publish(slowIDs.map { JobFactory.alert(id: $0) })
        let collector = try await QueueCollector.start(harness, queue: harness.settings.topology.resultsQueue!, name: "\(harness.prefix)results")
        let worker = try await harness.startWorker()
        defer { Task { try? await worker.stop() } }
        try await Condition.wait("team-one's jobs hold the bulk slots") { harness.mock.server.recorder.snapshot.requests >= 8 }
        try await harness.publish(quickIDs.map { JobFactory.alert(id: $0, topic: "com.example.other") }, lane: team)
        try await Condition.wait("team-two's jobs answered", timeout: .seconds(60)) {
            collector.messages.compactMap { try? JobResult.decode($0.body) }.count { $0.id?.hasPrefix("two-") == true } == quickIDs.count
        }
        try await worker.stop()
        await collector.stop()

        let order = try collector.messages.map { try JobResult.decode($0.body) }.compactMap(\.id)
        let lastQuick = try #require(order.lastIndex { $0.hasPrefix("two-") })
        let slowBefore = order[..<lastQuick].count { $0.hasPrefix("one-") }
        // Team-two's 20 jobs need about two of team-one's rounds of 8 on a quiet machine; 100 is half the
        // backlog they would otherwise wait for.
        #expect(slowBefore < 100, "team-two's last job was answered after \(slowBefore) of team-one's")
        await harness.tearDown()
    }

    @Test("a team lane's job retried after a 503 waits in the lane's own tier, not bulk's")
    func teamRetryStaysInTheLane() async throws {
        let harness = try await WorkerHarness.make(mockSetup: {
            $0.faults.forcedReason = "ServiceUnavailable"
            $0.faults.forcedReasonCount = 1000
        }) {
            $0.topology.retryTiers = [.seconds(30)]
            $0.topology.teamLanes = [TeamLane(name: "two", queue: $0.topology.jobsQueue + ".two")]
        }
        let worker = try await harness.startWorker()
        defer { Task { try? await worker.stop() } }
        try await harness.publish([JobFactory.alert(id: "team-retry", topic: "com.example.other")], lane: .team("two"))
        let prefix = harness.settings.topology.retryQueuePrefix
        let copies = try await harness.drain(prefix + "two.30s", count: 1)
        try await worker.stop()
        #expect(copies.count == 1)
        #expect(copies.first?.properties.headers[RetryHeaders.attempts] == .int(1))
        #expect(try await harness.drain(prefix + "30s", count: 1, idle: .milliseconds(500)).isEmpty, "nothing in bulk's tier")
        await harness.tearDown()
    }

    @Test("a rate-limited team's multicast senders lend their permits while they wait for their moment")
    func rateWaitsLendPermits() async throws {
        // team-one may send 2/s and has 4 multicast jobs of 10 tokens queued: 20 s of schedule, so its
        // senders (2 per job, 8 permits, no pacing) spend it asleep however loaded the machine is.
        // Holding their permits asleep, they would keep team-two's 20-token job from starting until
        // one of team-one's jobs ran out of tokens; lending, they hold none while they wait.
        let harness = try await WorkerHarness.make(setup: {
            $0.worker.maxConcurrentJobs = 8
            $0.worker.shards = 1
            $0.worker.multicastPacing = false
            $0.worker.fleetSize = 1
            $0.worker.shutdownTimeout = .seconds(1)
            $0.credentials[0].rateLimit = 2
        })
        try await harness.publish((0..<4).map { JobFactory.multicast(id: "one-\($0)", tokens: (0..<10).map { _ in JobFactory.token() }) })
        let collector = try await QueueCollector.start(harness, queue: harness.settings.topology.resultsQueue!, name: "\(harness.prefix)results")
        let worker = try await harness.startWorker()
        defer { Task { try? await worker.stop() } }
        let permits = worker.service.shared.permits
        try await Condition.wait("team-one's jobs are sending") { harness.mock.server.recorder.snapshot.requests >= 1 }
        // Holding them, no moment comes before team-one's last job ends (20 s).
        try await Condition.wait("team-one's senders wait for their moments holding no permit", timeout: .seconds(10)) { permits.inUse == 0 }
        try await harness.publish([JobFactory.multicast(id: "two", tokens: (0..<20).map { _ in JobFactory.token() }, topic: "com.example.other")])
        try await Condition.wait("team-two's job answered", timeout: .seconds(60)) {
            collector.messages.contains { (try? JobResult.decode($0.body))?.id == "two" }
        }
        let teamOneSent = harness.mock.server.recorder.snapshot.requests - 20
        // Team-one's senders are still asleep: the drain gives up on them after the shutdown timeout
        // (DrainTimeout) and their jobs go back to the queue.
        _ = try? await worker.stop()
        await collector.stop()
        #expect(teamOneSent < 30, "team-two's job ended after \(teamOneSent) of team-one's 40 requests")
        await harness.tearDown()
    }
}
