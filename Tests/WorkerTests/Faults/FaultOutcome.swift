import AMQP
import APNsCore
import DeadLetterTools
import Foundation
import MockAPNs
import TestSupport
@testable import Worker
import WorkerConfiguration

/// Everything a finished scenario left behind: what came out of the broker, what the mock saw.
struct FaultOutcome: Sendable {
    let scenario: FaultScenario
    let settings: WorkerSettings
    /// Every result message, duplicates included.
    let results: [JobResult]
    /// Messages on the results queue that are not results.
    let undecodable: Int
    let deadLetters: [AMQPMessage]
    /// The mock's ground truth: what APNs accepted, per apns-id.
    let recorded: DeliveryRecorder.Snapshot
    let seconds: Double
    /// What the action wrote down.
    let notes: [String]
    /// Named figures the action recorded.
    let facts: [String: Double]
    /// Exit statuses of the worker processes, in order (a fleet's slot after slot).
    let exitStatuses: [Int32]
    /// Exit statuses per fleet slot (one slot unless the scenario runs a fleet).
    let fleetExitStatuses: [[Int32]]
    /// Why the run stopped early, if it did (a timeout, a failed action).
    let error: String?
    /// The worker processes' log (stderr), appended across restarts.
    let logPath: String
    /// Every fleet slot's log; the first is ``logPath``.
    let logPaths: [String]

    /// The last result of each job.
    var finalResults: [String: JobResult] {
        Dictionary(results.map { ($0.id ?? "?", $0) }, uniquingKeysWith: { _, last in last })
    }

    var audit: FaultAudit { FaultAudit(self) }

    /// Dead letters the worker published (they carry `dead-lettered-at`).
    var workerDeadLetters: [AMQPMessage] { deadLetters.filter(FaultOutcome.isWorkerDeadLetter) }
    /// Dead letters the broker made itself, at the jobs queue's delivery limit (they carry `x-death`,
    /// and a retry copy's `last-error` if they were one).
    var brokerDeadLetters: [AMQPMessage] { deadLetters.filter { !FaultOutcome.isWorkerDeadLetter($0) } }

    /// The worker writes `dead-lettered-at` on every dead letter it publishes, and nothing else does.
    static func isWorkerDeadLetter(_ message: AMQPMessage) -> Bool {
        message.properties.headers[DeadLetter.deadLetteredAtHeader] != nil
    }
}
