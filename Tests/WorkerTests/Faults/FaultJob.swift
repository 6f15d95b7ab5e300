import Foundation
@testable import Worker
import WorkerConfiguration

/// One job of a scenario and how it may end.
struct FaultJob: Sendable {
    /// A terminal status and, if it matters, the reason.
    struct Outcome: Sendable, Hashable, CustomStringConvertible {
        let status: JobStatus
        let reason: String?

        static let delivered = Outcome(status: .delivered, reason: nil)
        static func failed(_ reason: String) -> Outcome { Outcome(status: .failed, reason: reason) }
        static func rejected(_ reason: String) -> Outcome { Outcome(status: .rejected, reason: reason) }

        func matches(_ result: JobResult) -> Bool {
            result.status == status && (reason == nil || result.reason == reason)
        }

        var description: String { status.rawValue + (reason.map { " \($0)" } ?? "") }
    }

    let id: String
    let body: [UInt8]
    /// Acceptable terminal results; empty when the job can have none (no id can be read from it).
    let outcomes: [Outcome]
    /// Whether the job must also end as a dead letter.
    let deadLetters: Bool
    /// A case of `hostile_publish.py`: the job carries AMQP properties this project's client refuses
    /// to write (bytes that are not UTF-8, keys over 255 bytes...), so pika publishes it instead.
    var amqpCase: String? = nil
    /// The lane it is published to.
    var lane = Lane.bulk

    init(id: String, body: [UInt8], outcomes: [Outcome], deadLetters: Bool = false, amqpCase: String? = nil) {
        self.id = id
        self.body = body
        self.outcomes = outcomes
        self.deadLetters = deadLetters
        self.amqpCase = amqpCase
    }

    /// The team lane of scenarios that mix lanes (``mixingLanes(_:everyNth:)``), with a window of 100.
    static let teamLane = TeamLane(name: "faults", queue: "", prefetch: 100)

    /// `jobs` with every `nth` one in the urgent lane and the one after it in the team lane
    /// ``teamLane``: a scenario's faults then hit every kind of lane at once.
    static func mixingLanes(_ jobs: [FaultJob], everyNth nth: Int) -> [FaultJob] {
        jobs.enumerated().map { index, job in
            var job = job
            job.lane = index % nth == 0 ? .urgent : index % nth == 1 ? .team(teamLane.name) : .bulk
            return job
        }
    }

    /// A job the mock accepts.
    static func alert(_ id: String) -> FaultJob {
        FaultJob(id: id, body: JobFactory.alert(id: id), outcomes: [.delivered])
    }

    /// `count` deliverable jobs named `prefix-0`, `prefix-1`, ….
    static func alerts(_ prefix: String, count: Int) -> [FaultJob] {
        (0..<count).map { alert("\(prefix)-\($0)") }
    }

    /// One of the mixed-test kinds, with the outcome `JobFactory` documents for it.
    static func kind(_ kind: JobFactory.Kind, id: String) -> FaultJob {
        let outcomes = kind.expected.map { [Outcome(status: JobStatus(rawValue: $0.0)!, reason: $0.1)] } ?? []
        return FaultJob(id: id, body: kind.body(id: id), outcomes: outcomes, deadLetters: kind.deadLetters)
    }
}
