import AMQP
import APNsCore
import Foundation
import MockAPNs
import TestSupport
@testable import Worker
import WorkerConfiguration

/// Runs one scenario with real processes: the test broker, a mock APNs (in this process), and
/// `apns-worker run` as a child process.
///
/// Order: topology, collectors on the results and dead-letter queues, `prepare`, the jobs (published
/// as a backlog), the worker, the `action`, then waiting until every job that must have a result has
/// one and every expected dead letter arrived. The worker then gets SIGTERM, the collectors wait for
/// stragglers (late duplicates), and the harness's queues are deleted.
enum FaultRunner {
    static func run(_ scenario: FaultScenario) async throws -> FaultOutcome {
        if scenario.cluster {
            // A scenario that failed mid-fault may have left a node down: each starts on all three.
            for node in ["1", "2", "3"] { try await FaultRun.clusterScript(["restart", node]) }
        }
        let metricsPort = FaultRun.freePort()
        var harness = try await WorkerHarness.make(mockSetup: scenario.mock) { settings in
            settings.metrics.port = metricsPort
            settings.amqp.connectionName = "fault-worker-\(UUID().uuidString.prefix(8).lowercased())"
            if scenario.cluster { settings.amqp.urls = TestCluster.urls }
            if scenario.jobs.contains(where: { $0.lane == .team(FaultJob.teamLane.name) }) {
                var team = FaultJob.teamLane
                team.queue = settings.topology.jobsQueue + "." + team.name
                settings.topology.teamLanes = [team]
            }
            scenario.settings(&settings)
        }
        if scenario.cluster { harness.harnessURLs = [TestCluster.url(3)] }
        let worker = WorkerProcess(harness: harness, environment: scenario.environment)
        let fleet = [worker] + (1..<max(1, scenario.fleet)).map { member(of: harness, scenario: scenario, slot: $0) }
        let notebook = Notebook()
        var collectors: [QueueCollector] = []
        var failure: String?
        var started = ContinuousClock.now
        var finished: ContinuousClock.Instant?
        do {
            try await FaultRun.declareTopology(of: harness)
            let results = try await QueueCollector.start(harness, queue: harness.settings.topology.resultsQueue!, name: "\(harness.prefix)results-reader")
            collectors.append(results)
            let deadLetters = try await QueueCollector.start(harness, queue: harness.settings.topology.deadQueue, name: "\(harness.prefix)dead-reader")
            collectors.append(deadLetters)
            started = .now
            let run = FaultRun(
                scenario: scenario, harness: harness, worker: worker, fleet: fleet, results: results, deadLetters: deadLetters,
                metricsPort: metricsPort, notebook: notebook, started: started
            )
            try await scenario.prepare?(run)
            try await publishJobs(of: run)
            for process in fleet { try process.launch() }
            try await scenario.action?(run)
            try await waitForEveryResult(run)
            finished = .now
        } catch {
            failure = "\(error)"
        }
        let seconds = (finished ?? .now) - started
        for process in fleet where process.isRunning { await process.terminate() }
        for collector in collectors { await collector.settle(idle: .seconds(1)) }
        for collector in collectors { await collector.stop() }
        let messages = collectors.first?.messages ?? []
        let results = messages.compactMap { try? JobResult.decode($0.body) }
        let outcome = FaultOutcome(
            scenario: scenario, settings: harness.settings, results: results, undecodable: messages.count - results.count,
            deadLetters: collectors.count > 1 ? collectors[1].messages : [], recorded: harness.mock.server.recorder.snapshot,
            seconds: Double(seconds.components.seconds) + Double(seconds.components.attoseconds) / 1e18,
            notes: notebook.lines, facts: notebook.facts, exitStatuses: fleet.flatMap(\.exitStatuses),
            fleetExitStatuses: fleet.map(\.exitStatuses), error: failure, logPath: harness.logPath, logPaths: fleet.map(\.logPath)
        )
        await harness.tearDown()
        try? FileManager.default.removeItem(at: harness.configPath)
        return outcome
    }

    /// A fleet's second (third, …) worker: its own metrics port, log and name and, on the cluster,
    /// the nodes in an order rotated by its slot, so it connects to another node than the first.
    private static func member(of harness: WorkerHarness, scenario: FaultScenario, slot: Int) -> WorkerProcess {
        var environment = scenario.environment
        environment["APNS_WORKER__METRICS__PORT"] = String(FaultRun.freePort())
        environment["APNS_WORKER__WORKER__NAME"] = "\(harness.settings.worker.name)-\(slot)"
        environment["APNS_WORKER__AMQP__CONNECTION_NAME"] = "\(harness.settings.amqp.connectionName)-\(slot)"
        if scenario.cluster {
            let urls = TestCluster.urls
            let rotated = urls[(slot % urls.count)...] + urls[..<(slot % urls.count)]
            environment["APNS_WORKER__AMQP__URLS"] = "[\(rotated.joined(separator: ", "))]"
        }
        return WorkerProcess(harness: harness, environment: environment, logPath: harness.logPath + ".\(slot)")
    }

    /// The jobs in order; those with an ``FaultJob/amqpCase`` go through `hostile_publish.py` (pika) at
    /// their place in the list, so they end up among the others in the queue. Jobs of other lanes go
    /// after the bulk ones, each lane to its own queue (overtaking them is what their lanes are for).
    private static func publishJobs(of run: FaultRun) async throws {
        if run.scenario.jobs.contains(where: { $0.lane != .bulk }) {
            for lane in [Lane.bulk, .team(FaultJob.teamLane.name), .urgent] {
                let bodies = run.scenario.jobs.filter { $0.lane == lane }.map(\.body)
                if !bodies.isEmpty { try await run.publish(bodies, lane: lane) }
            }
            return
        }
        var pending: [FaultJob] = []
        for job in run.scenario.jobs {
            if job.amqpCase != nil, let previous = pending.last, previous.amqpCase == nil {
                try await run.publish(pending.map(\.body))
                pending = []
            } else if job.amqpCase == nil, let previous = pending.last, previous.amqpCase != nil {
                try await run.publishWithPika(pending)
                pending = []
            }
            pending.append(job)
        }
        if pending.first?.amqpCase != nil { try await run.publishWithPika(pending) } else { try await run.publish(pending.map(\.body)) }
    }

    /// Until every expected id has a result and the expected dead letters arrived; gives up at the
    /// scenario's timeout, or when nothing new came for 45 s.
    private static func waitForEveryResult(_ run: FaultRun) async throws {
        let expected = run.scenario.expectedIDs
        let deadline = run.started + run.scenario.timeout
        var seen = Set<String>()
        var decoded = 0
        var lastProgress = ContinuousClock.now
        while true {
            let messages = run.results.messages
            for message in messages[decoded...] {
                if let id = try? JobResult.decode(message.body).id { seen.insert(id) }
            }
            if messages.count > decoded { lastProgress = .now }
            decoded = messages.count
            let deadLetters = run.deadLetters.messages.filter(FaultOutcome.isWorkerDeadLetter).count
            if expected.isSubset(of: seen), deadLetters >= run.scenario.expectedDeadLetters { return }
            let missing = expected.subtracting(seen)
            if ContinuousClock.now > deadline || ContinuousClock.now - lastProgress > .seconds(45) {
                throw HarnessError(
                    "\(missing.count) results and \(max(0, run.scenario.expectedDeadLetters - deadLetters)) dead letters missing "
                        + "(e.g. \(missing.sorted().prefix(3).map { $0.prefix(80) })); worker log:\n\(run.harness.processLog.suffix(2000))"
                )
            }
            try await Task.sleep(for: .milliseconds(100))
        }
    }
}
