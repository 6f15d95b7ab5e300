import AMQP
@testable import DeadLetterTools
import Foundation
import MockAPNs
import Testing
import TestSupport
@testable import Worker
import WorkerConfiguration

/// Passes over a real dead-letter queue on the test broker.
@Suite("Dead-letter sweeps", .io)
struct DeadLetterSweepTests {
    /// Letters `dl-0…dl-(count-1)`, with the headers the worker writes: even ones BadDeviceToken of
    /// team-one (chosen by topic: the job names none), odd ones ServiceUnavailable of team-two (named).
    static func seed(_ harness: WorkerHarness, count: Int) async throws -> AMQPClient {
        let client = try await FaultRun.client(of: harness, name: "dead-letters")
        try await Topology(settings: harness.settings.topology).declare(on: client)
        for index in 0..<count {
            var properties = AMQPProperties()
            properties.persistent = true
            properties.messageID = "dl-\(index)"
            let even = index.isMultiple(of: 2)
            properties.headers = [
                RetryHeaders.lastError: .string(even ? "BadDeviceToken: no such device" : "ServiceUnavailable: 3 attempts; last: 503 ServiceUnavailable"),
                RetryHeaders.attempts: .int(even ? 1 : 3),
                RetryHeaders.credential: .string(even ? "team-one" : "team-two"),
                DeadLetter.deadLetteredAtHeader: .int(Int64(Date().timeIntervalSince1970 * 1000)),
            ]
            let body = JobFactory.alert(id: "dl-\(index)", extra: even ? "" : #","credential":"team-two""#)
            let outcome = try await client.publish(exchange: harness.settings.topology.deadExchange, routingKey: "", message: AMQPMessage(body: body, properties: properties), mandatory: true)
            #expect(outcome == .confirmed)
        }
        return client
    }

    static func sweep(_ harness: WorkerHarness, _ plan: DeadLetterSweep.Plan) async throws -> (DeadLetterSweep.Report, [(String?, DeadLetterSweep.Outcome)]) {
        let topology = harness.settings.topology
        let sweep = DeadLetterSweep(queue: topology.deadQueue, jobsExchange: topology.jobsExchange, jobsRoutingKey: topology.jobsRoutingKey, plan: plan)
        // The sweep consumes: a client of its own, as the command has.
        let amqp = try await FaultRun.client(of: harness, name: "sweep")
        var seen: [(String?, DeadLetterSweep.Outcome)] = []
        let report = try await sweep.run(on: amqp, each: { letter, outcome, _ in seen.append((letter.jobID, outcome)) })
        await amqp.close()
        return (report, seen)
    }

    /// The ids in `queue`, in order (consumed: the queue is empty afterwards).
    static func ids(in queue: String, of harness: WorkerHarness, count: Int) async throws -> [String?] {
        try await harness.drain(queue, count: count, idle: .seconds(3)).map(\.properties.messageID)
    }

    @Test("letters looked at 25 times are all still there (RabbitMQ 4.x drops a message after 20 deliveries unless the queue says otherwise)")
    func lookedAtOften() async throws {
        let harness = try await WorkerHarness.make()
        let client = try await Self.seed(harness, count: 10)
        for _ in 0..<25 {
            let (report, _) = try await Self.sweep(harness, DeadLetterSweep.Plan(action: .list))
            #expect(report.looked == 10)
        }
        #expect(try await Self.ids(in: harness.settings.topology.deadQueue, of: harness, count: 10) == (0..<10).map { "dl-\($0)" })
        await client.close()
        await harness.tearDown()
    }

    @Test("list looks at every letter, removes none, and keeps their order")
    func list() async throws {
        let harness = try await WorkerHarness.make()
        let client = try await Self.seed(harness, count: 40)
        let (report, seen) = try await Self.sweep(harness, DeadLetterSweep.Plan(action: .list))
        #expect(report.ready == 40)
        #expect(report.looked == 40)
        #expect(report[.listed] == 40)
        #expect(report.stoppedEarly == nil)
        #expect(seen.map(\.0) == (0..<40).map { "dl-\($0)" })
        let left = try await Self.ids(in: harness.settings.topology.deadQueue, of: harness, count: 40)
        #expect(left == (0..<40).map { "dl-\($0)" }, "\(left)")
        await client.close()
        await harness.tearDown()
    }

    @Test("replay by reason: those jobs go back with their ids, a fresh count and replayed-at; the rest stay, in order")
    func replayByReason() async throws {
        let harness = try await WorkerHarness.make()
        let client = try await Self.seed(harness, count: 40)
        var plan = DeadLetterSweep.Plan(action: .replay)
        plan.filter.reasons = ["serviceunavailable"]
        let (report, _) = try await Self.sweep(harness, plan)
        #expect(report[.replayed] == 20)
        #expect(report[.kept] == 20)
        #expect(report[.failed] == 0)
        let jobs = try await harness.drain(harness.settings.topology.jobsQueue, count: 20, idle: .seconds(3))
        #expect(jobs.map(\.properties.messageID) == stride(from: 1, to: 40, by: 2).map { "dl-\($0)" })
        #expect(jobs.allSatisfy { $0.properties.headers[RetryHeaders.attempts] == nil && $0.properties.headers[ReplayedJob.replayedAtHeader] != nil })
        #expect(try await Self.ids(in: harness.settings.topology.deadQueue, of: harness, count: 20) == stride(from: 0, to: 40, by: 2).map { "dl-\($0)" })
        await client.close()
        await harness.tearDown()
    }

    @Test("replay puts a letter back in the lane it left: urgent or a team's by the lane's routing key or its queue's name, bulk otherwise")
    func replayKeepsTheLane() async throws {
        let harness = try await WorkerHarness.make(setup: { $0.topology.teamLanes = [TeamLane(name: "payments", queue: $0.topology.jobsQueue + ".payments")] })
        let topology = harness.settings.topology
        let team = topology.teamLanes[0]
        let client = try await FaultRun.client(of: harness, name: "lanes")
        try await Topology(settings: topology).declare(on: client)
        // As they reach the dead-letter fanout: the worker's from a lane, the broker's after a lane's
        // retry tier handed the job back under the queue's name, and a bulk one.
        let letters = [
            ("u-worker", topology.urgentRoutingKey), ("u-broker", topology.urgentQueue!), ("t-worker", team.name), ("t-broker", team.queue),
            ("b", topology.jobsRoutingKey),
        ]
        for (id, routingKey) in letters {
            var properties = AMQPProperties(persistent: true)
            properties.messageID = id
            let outcome = try await client.publish(exchange: topology.deadExchange, routingKey: routingKey, message: AMQPMessage(body: JobFactory.alert(id: id), properties: properties), mandatory: true)
            #expect(outcome == .confirmed)
        }
        let sweep = DeadLetterSweep(
            queue: topology.deadQueue, jobsExchange: topology.jobsExchange, jobsRoutingKey: topology.jobsRoutingKey,
            replayRoutingKeys: topology.replayRoutingKeys, plan: DeadLetterSweep.Plan(action: .replay)
        )
        let amqp = try await FaultRun.client(of: harness, name: "sweep")
        let report = try await sweep.run(on: amqp, each: { _, _, _ in })
        await amqp.close()
        #expect(report[.replayed] == 5)
        #expect(try await harness.drain(topology.urgentQueue!, count: 2, idle: .seconds(3)).map(\.properties.messageID) == ["u-worker", "u-broker"])
        #expect(try await harness.drain(team.queue, count: 2, idle: .seconds(3)).map(\.properties.messageID) == ["t-worker", "t-broker"])
        #expect(try await harness.drain(topology.jobsQueue, count: 1, idle: .seconds(3)).map(\.properties.messageID) == ["b"])
        await client.close()
        await harness.tearDown()
    }

    @Test("purge by credential with a limit removes only that many of those; a dry run removes nothing")
    func purge() async throws {
        let harness = try await WorkerHarness.make()
        let client = try await Self.seed(harness, count: 20)
        var dry = DeadLetterSweep.Plan(action: .purge)
        dry.filter.credentials = ["team-two"]
        dry.dryRun = true
        let (dryReport, _) = try await Self.sweep(harness, dry)
        #expect(dryReport[.wouldPurge] == 10)
        #expect(dryReport[.purged] == 0)
        var plan = DeadLetterSweep.Plan(action: .purge)
        plan.filter.credentials = ["team-two"]
        plan.limit = 4
        let (report, _) = try await Self.sweep(harness, plan)
        #expect(report[.purged] == 4)
        #expect(report.stoppedEarly?.contains("limit") == true)
        let left = try await Self.ids(in: harness.settings.topology.deadQueue, of: harness, count: 16)
        #expect(left == (0..<20).filter { !([1, 3, 5, 7] as Set).contains($0) }.map { "dl-\($0)" })
        await client.close()
        await harness.tearDown()
    }

    @Test("a copy the broker cannot route leaves its letter in place, and the pass says why")
    func unroutableReplay() async throws {
        let harness = try await WorkerHarness.make()
        let client = try await Self.seed(harness, count: 6)
        let topology = harness.settings.topology
        try await client.unbind(AMQPBindingDeclaration(queue: topology.jobsQueue, exchange: topology.jobsExchange, routingKey: topology.jobsRoutingKey))
        let (report, _) = try await Self.sweep(harness, DeadLetterSweep.Plan(action: .replay))
        #expect(report[.failed] == 6)
        #expect(report[.replayed] == 0)
        #expect(report.lastFailure?.contains("returned") == true)
        #expect(try await Self.ids(in: topology.deadQueue, of: harness, count: 6) == (0..<6).map { "dl-\($0)" })
        await client.close()
        await harness.tearDown()
    }

    @Test("a worker's dead letter says when, and replayed it is sent again with the same apns-id")
    func workerRoundTrip() async throws {
        // The mock's first answer is a 500: with one attempt allowed, the job is dead-lettered.
        let harness = try await WorkerHarness.make {
            $0.faults.forcedReason = "InternalServerError"
            $0.faults.forcedReasonCount = 1
        } setup: {
            $0.worker.maxAttempts = 1
        }
        try await harness.publish([JobFactory.alert(id: "round-trip")])
        let worker = try await harness.startWorker()
        let first = try await harness.results(count: 1)
        #expect(first.first?.status == .failed)
        let client = try await FaultRun.client(of: harness, name: "round-trip")
        let (report, seen) = try await Self.sweep(harness, DeadLetterSweep.Plan(action: .replay))
        #expect(report[.replayed] == 1)
        #expect(seen.first?.0 == "round-trip")
        let second = try await harness.results(count: 1)
        #expect(second.first?.id == "round-trip")
        #expect(second.first?.attempts == 1, "the attempt count starts again")
        #expect(second.first?.apnsID == first.first?.apnsID)
        try await worker.stop()
        await client.close()
        await harness.tearDown()
    }
}

/// `apns-worker dead-letters` as an operator runs it.
@Suite("apns-worker dead-letters", .io)
struct DeadLettersCommandTests {
    static let binary = URL(fileURLWithPath: WorkerCommandLine.binary)

    /// `arguments` after `dead-letters`, with the harness's configuration written where they point.
    func commandLine(_ harness: WorkerHarness, _ arguments: [String]) throws -> [String] {
        let config = Self.configPath(harness)
        try Data(harness.settings.yaml.utf8).write(to: config)
        return ["dead-letters"] + arguments + ["--config", config.path]
    }

    /// The command's own configuration file, apart from the one a running worker of the harness reads.
    static func configPath(_ harness: WorkerHarness) -> URL {
        FileManager.default.temporaryDirectory.appendingPathComponent("\(harness.prefix)cli.yaml")
    }

    func run(_ harness: WorkerHarness, _ arguments: [String]) async throws -> ProcessRun {
        try await ProcessRun.run(Self.binary.path, try commandLine(harness, arguments))
    }

    /// `apns-worker dead-letters …` started and left running; its stderr goes to `log`.
    func launch(_ harness: WorkerHarness, _ arguments: [String], log: String) throws -> Process {
        try harness.startCommand(["dead-letters"] + arguments, config: Self.configPath(harness), log: log, appending: false)
    }

    /// Waits up to 30 s for `process` to end (then kills it, so a signal it ignored cannot hang the
    /// suite); its exit status, or nil if it had to be killed.
    func exitStatus(of process: Process) async throws -> Int32? {
        for _ in 0..<600 where process.isRunning { try await Task.sleep(for: .milliseconds(50)) }
        guard !process.isRunning else {
            kill(process.processIdentifier, SIGKILL)
            await process.exited()
            return nil
        }
        return process.terminationStatus
    }

    @Test("list prints the reasons with counts; --json one line per letter; replay --dry-run, then replay, then purge --yes")
    func operatorSession() async throws {
        let harness = try await WorkerHarness.make()
        let client = try await DeadLetterSweepTests.seed(harness, count: 10)
        let list = try await run(harness, ["list"])
        #expect(list.status == 0)
        let rows = list.output.split(separator: "\n")
        #expect(rows.first?.hasPrefix("reason") == true)
        #expect(rows.contains { $0.hasPrefix("BadDeviceToken") && $0.contains(" 5 ") && $0.contains("team-one") && $0.contains("team-two") == false })
        #expect(rows.contains { $0.hasPrefix("ServiceUnavailable") && $0.contains(" 5 ") && $0.contains("team-two") })
        #expect(rows.last?.contains("looked at 10 of 10 ready; listed 10") == true, "\(list.output)")

        let json = try await run(harness, ["list", "--json", "--reason", "ServiceUnavailable"])
        let lines = json.output.split(separator: "\n").filter { $0.hasPrefix("{") }
        #expect(lines.count == 5)
        #expect(lines.first?.contains(#""id":"dl-1""#) == true)
        #expect(lines.first?.contains(#""outcome":"listed""#) == true)

        let byCredential = try await run(harness, ["list", "--credential", "team-one"])
        #expect(byCredential.output.contains("listed 5"), "a credential chosen by topic selects too: \(byCredential.output)")
        let dry = try await run(harness, ["replay", "--reason", "ServiceUnavailable", "--dry-run"])
        #expect(dry.output.contains("would-replay 5"), "\(dry.output)")
        let replay = try await run(harness, ["replay", "--reason", "ServiceUnavailable", "--rate", "100"])
        #expect(replay.status == 0)
        #expect(replay.output.contains("replayed 5; kept 5"), "\(replay.output)")

        let refused = try await run(harness, ["purge"])
        #expect(refused.status != 0, "purge without --yes or --dry-run is refused")
        let purge = try await run(harness, ["purge", "--yes"])
        #expect(purge.output.contains("purged 5"), "\(purge.output)")
        #expect(try await harness.drain(harness.settings.topology.deadQueue, count: 1, idle: .seconds(1)).isEmpty)
        #expect(try await harness.drain(harness.settings.topology.jobsQueue, count: 5, idle: .seconds(3)).count == 5)
        await client.close()
        await harness.tearDown()
    }

    @Test("a replay cut short by SIGINT, then by kill -9, loses nothing: each letter is back in the jobs queue or still in apns.dead, in order")
    func interruptedReplays() async throws {
        let harness = try await WorkerHarness.make()
        let client = try await DeadLetterSweepTests.seed(harness, count: 200)
        let topology = harness.settings.topology
        let replayed = try await QueueCollector.start(harness, queue: topology.jobsQueue, name: "\(harness.prefix)replayed")
        var statuses: [Int32?] = []
        let log = FileManager.default.temporaryDirectory.appendingPathComponent("\(harness.prefix)replay.log").path
        for signal in [SIGINT, SIGKILL] {
            let before = replayed.count
            // Odd letters only, 40 a second: the even ones are held unacknowledged while it runs.
            let process = try launch(harness, ["replay", "--reason", "ServiceUnavailable", "--rate", "40"], log: log)
            try await waitUntil { replayed.count >= before + 10 }
            kill(process.processIdentifier, signal)
            statuses.append(try await exitStatus(of: process))
        }
        let stderr = (try? String(contentsOfFile: log, encoding: .utf8)) ?? ""
        #expect(statuses == [130, SIGKILL], "SIGINT ends the pass with 130; kill -9 kills it; stderr: \(stderr.suffix(800))")
        await replayed.settle(idle: .seconds(1))
        await replayed.stop()

        let left = try await DeadLetterSweepTests.ids(in: topology.deadQueue, of: harness, count: 200).compactMap { $0 }
        let back = replayed.messages.compactMap(\.properties.messageID)
        let all = (0..<200).map { "dl-\($0)" }
        #expect(Set(left).union(back) == Set(all), "lost: \(Set(all).subtracting(left).subtracting(back).sorted().prefix(5))")
        let indices = left.compactMap { Int($0.dropFirst(3)) }
        #expect(indices == indices.sorted(), "the letters left keep their order: \(indices.prefix(20))")
        #expect(indices.filter { $0.isMultiple(of: 2) }.count == 100, "every letter not selected stays")
        #expect(back.allSatisfy { Int($0.dropFirst(3)).map { !$0.isMultiple(of: 2) } ?? false }, "only selected letters went back")
        // A copy confirmed whose removal died with the process is replayed again: at most one per interruption.
        let twice = (back.count - Set(back).count) + Set(left).intersection(back).count
        #expect(twice <= 2, "\(twice) letters replayed twice")
        #expect(back.count >= 20)
        await client.close()
        await harness.tearDown()
    }
}
