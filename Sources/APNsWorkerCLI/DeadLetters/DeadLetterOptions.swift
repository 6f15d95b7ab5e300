import AMQP
import ArgumentParser
import DeadLetterTools
import Foundation
import Logging
import Worker
import WorkerConfiguration

/// The selection every `dead-letters` command shares, and the run itself.
struct DeadLetterOptions: ParsableArguments {
    @OptionGroup var config: ConfigOptions
    @Option(help: "Only letters with this reason (repeatable; case does not matter): the code before the colon of last-error, e.g. ServiceUnavailable, BadDeviceToken, expired, delivery_limit.") var reason: [String] = []
    @Option(help: "Only jobs of this credential (repeatable).") var credential: [String] = []
    @Option(help: "Only jobs to this topic (repeatable).") var topic: [String] = []
    @Option(name: .customLong("job-id"), help: "Only the job with this id (repeatable).") var jobID: [String] = []
    @Option(help: "Only letters dead-lettered at least this long ago (250ms, 30s, 5m, 2h).") var olderThan: String?
    @Option(help: "Only letters dead-lettered at most this long ago.") var newerThan: String?
    @Option(help: "Select at most this many letters.") var limit: Int?
    @Flag(help: "One JSON line per selected letter instead of the summary table.") var json = false
    @Option(help: "The dead-letter queue (default: topology.dead_queue).") var queue: String?

    func validate() throws {
        for (name, text) in [("--older-than", olderThan), ("--newer-than", newerThan)] {
            if let text, DurationText.parse(text) == nil { throw ValidationError("\(name) \(text) is not a duration (250ms, 30s, 5m, 2h)") }
        }
        if let limit, limit < 0 { throw ValidationError("--limit must be 0 or more") }
    }

    var filter: DeadLetterFilter {
        var filter = DeadLetterFilter()
        filter.reasons = Set(reason)
        filter.credentials = Set(credential)
        filter.topics = Set(topic)
        filter.jobIDs = Set(jobID)
        filter.olderThan = olderThan.flatMap(DurationText.parse)
        filter.newerThan = newerThan.flatMap(DurationText.parse)
        return filter
    }

    /// Runs one pass and prints its summary; exits 1 when a replay failed, 130 when interrupted.
    func sweep(_ action: DeadLetterSweep.Action, work: DeadLetterWorkOptions? = nil) async throws {
        let settings = try config.settings()
        WorkerLogging.bootstrap(settings.log)
        var plan = DeadLetterSweep.Plan(action: action)
        plan.filter = filter
        plan.limit = limit
        plan.rate = work?.rate
        plan.dryRun = work?.dryRun ?? false
        let queue = queue ?? settings.topology.deadQueue
        let topology = settings.topology
        let sweep = DeadLetterSweep(
            queue: queue, jobsExchange: topology.jobsExchange, jobsRoutingKey: topology.jobsRoutingKey,
            replayRoutingKeys: topology.replayRoutingKeys, plan: plan
        )
        let amqp = AMQPClient(options: try settings.amqp.clientOptions(), logger: Logger(label: "apns.dead-letters"))
        try await amqp.connect()
        for unknown in reason where !DeadLetterReason.isKnown(unknown) {
            FileHandle.standardError.write(Data("warning: --reason \(unknown) is not a reason the worker or the broker writes; a letter's reason is the code before the colon of its last-error (ServiceUnavailable, BadDeviceToken, expired, delivery_limit…)\n".utf8))
        }
        for code in reason {
            let usual = DeadLetterReason.reasonsUsuallyWritten(insteadOf: code)
            guard !usual.isEmpty else { continue }
            FileHandle.standardError.write(Data("note: --reason \(code) selects only answers that came without a reason; letters of such answers usually read \(usual.joined(separator: " or "))\n".utf8))
        }
        let interrupt = InterruptFlag()
        // Every letter's reason, selected or not: an empty selection then says what there is.
        var reasonsSeen: [String: Int] = [:]
        let progress = ProgressBar.onTerminal()
        var summary = DeadLetterSummary()
        let now = Date()
        let report: DeadLetterSweep.Report
        do {
            report = try await sweep.run(on: amqp, stop: { interrupt.isSet }) { letter, outcome, report in
                reasonsSeen[letter.reason, default: 0] += 1
                if outcome != .kept {
                    summary.add(letter, outcome)
                    if json { print(DeadLetterSummary.jsonLine(letter, outcome)) }
                }
                progress?.show(done: report.looked, of: report.ready, detail: DeadLetterSummary.countsText(report))
            }
        } catch {
            progress?.clear()
            await amqp.close()
            throw error
        }
        progress?.clear()
        await amqp.close()
        if !json { print(summary.table(now: now)) }
        if summary.isEmpty, !reasonsSeen.isEmpty {
            let present = reasonsSeen.sorted { ($0.value, $1.key) > ($1.value, $0.key) }.map { "\($0.key) (\($0.value))" }
            FileHandle.standardError.write(Data("reasons of the letters in \(queue): \(present.joined(separator: ", "))\n".utf8))
        }
        print(DeadLetterSummary.totalsLine(report, queue: queue, action: action))
        if report[.failed] > 0 { throw ExitCode(1) }
        if interrupt.isSet { throw ExitCode(130) }
    }
}
