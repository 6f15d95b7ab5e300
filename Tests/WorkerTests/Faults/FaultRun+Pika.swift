import Foundation
import TestSupport
import WorkerConfiguration

extension FaultRun {
    /// Publishes `jobs` through `hostile_publish.py`, each with the AMQP properties of its case.
    func publishWithPika(_ jobs: [FaultJob]) async throws {
        let cases = jobs.map { ["case": $0.amqpCase ?? "", "body": Data($0.body).base64EncodedString()] }
        let input = try JSONSerialization.data(withJSONObject: cases)
        let script = Fixtures.repository.appendingPathComponent("Tests/WorkerTests/Faults/hostile_publish.py").path
        let outcome = try await ProcessRun.run(
            "/usr/bin/python3", [script, settings.amqp.urls[0], settings.topology.jobsExchange, settings.topology.jobsRoutingKey],
            input: Array(input)
        )
        guard outcome.succeeded, outcome.output.trimmingCharacters(in: .whitespacesAndNewlines) == String(jobs.count) else {
            throw HarnessError("hostile_publish.py failed: \(outcome.transcript)")
        }
    }
}
