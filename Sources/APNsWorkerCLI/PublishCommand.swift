import AMQP
import ArgumentParser
import Foundation
import Logging
import Worker
import WorkerConfiguration

/// `apns-worker publish`: enqueues jobs from a JSON-lines file, each line as one message, confirmed.
struct PublishCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "publish",
        abstract: "Publish jobs from a JSON-lines file (one job per line; '-' reads stdin) with publisher confirms.",
        discussion: "Lines go as they are, even malformed ones (the worker dead-letters those). Exit status 1 if any was not confirmed."
    )

    @OptionGroup var options: ConfigOptions
    @Argument(help: "The JSON-lines file, or - for standard input.") var file: String
    @Option(help: "How many publishes may await their confirm at once.") var window = 1000
    @Flag(help: "Publish to the urgent lane (topology.urgent_routing_key): the jobs start ahead of every bulk job.") var urgent = false
    @Option(help: "Publish to this team lane (one of topology.team_lanes): the jobs wait in its own queue, behind no other team's.") var lane: String?

    func run() async throws {
        let settings = try options.settings()
        WorkerLogging.bootstrap(settings.log)
        let text = file == "-" ? String(decoding: FileHandle.standardInput.readDataToEndOfFile(), as: UTF8.self) : try String(contentsOfFile: file, encoding: .utf8)
        let lines = text.split(separator: "\n", omittingEmptySubsequences: true).map { Array($0.utf8) }
        let amqp = AMQPClient(options: try settings.amqp.clientOptions(), logger: Logger(label: "apns.publish"))
        try await amqp.connect()
        let started = ContinuousClock.now
        let lane = try chosenLane(in: settings.topology)
        let outcomes = try await publish(lines, with: amqp, topology: settings.topology, lane: lane)
        let elapsed = ContinuousClock.now - started
        await amqp.close()
        let confirmed = outcomes.filter { $0 == .confirmed }.count
        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        print(String(format: "published %d job(s): %d confirmed, %d returned, %d nacked in %.2f s (%.0f/s)", lines.count, confirmed,
                     outcomes.filter { if case .returned = $0 { true } else { false } }.count, outcomes.filter { $0 == .nacked }.count,
                     seconds, Double(lines.count) / max(seconds, 0.001)))
        if confirmed != lines.count { throw ExitCode(1) }
    }

    /// The lane `--urgent` or `--lane` names, bulk by default; one the configuration does not have is refused.
    private func chosenLane(in topology: TopologySection) throws -> Lane {
        if urgent, lane != nil { throw ValidationError("--urgent and --lane name two lanes: give one") }
        if urgent, topology.urgentQueue == nil {
            throw ValidationError("--urgent needs the urgent lane, which this configuration turns off (topology.urgent_queue: null)")
        }
        if urgent { return .urgent }
        guard let lane else { return .bulk }
        guard topology.teamLanes.contains(where: { $0.name == lane }) else {
            throw ValidationError("--lane \(lane) is not one of topology.team_lanes (\(topology.teamLanes.map(\.name).joined(separator: ", ")))")
        }
        return .team(lane)
    }

    private func publish(_ lines: [[UInt8]], with amqp: AMQPClient, topology: TopologySection, lane: Lane) async throws -> [AMQPPublishOutcome] {
        let routingKey = topology.routingKey(of: lane)
        return try await withThrowingTaskGroup(of: AMQPPublishOutcome.self) { group in
            var outcomes: [AMQPPublishOutcome] = []
            for (index, line) in lines.enumerated() {
                if index >= window, let outcome = try await group.next() { outcomes.append(outcome) }
                var properties = AMQPProperties()
                properties.contentType = "application/json"
                properties.persistent = true
                properties.headers["published-at"] = .int(Int64(Date().timeIntervalSince1970 * 1000))
                let message = AMQPMessage(body: line, properties: properties)
                group.addTask {
                    try await amqp.publish(exchange: topology.jobsExchange, routingKey: routingKey, message: message, mandatory: true)
                }
            }
            for try await outcome in group { outcomes.append(outcome) }
            return outcomes
        }
    }
}
