public import Foundation

extension Process {
    /// Waits until the process exits, without holding a thread of the cooperative pool.
    ///
    /// That pool has one thread per core, two here, and every test's tasks share it: a test blocked in
    /// `waitUntilExit()` while a worker drains held one for seconds, and two such tests froze every
    /// other test's waits and collectors (a lane test's publish, due when 6 jobs were at APNs, went
    /// out 9 s late). Dispatch's global queue blocks one of its own threads instead.
    public func exited() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            DispatchQueue.global().async {
                self.waitUntilExit()
                continuation.resume()
            }
        }
    }
}

extension Process {
    /// Waits until `program ARGUMENTS…` (a readiness probe: curl, a connect) exits 0, polling every
    /// `interval`; throws if this process exits first, or ``ConditionTimeout`` after `timeout`. The
    /// probe runs through ``ProcessRun/run(_:_:input:in:timeout:)``, so no thread of the pool blocks.
    public func waitUntilServing(
        _ what: String, timeout: Duration = .seconds(30), interval: Duration = .milliseconds(100),
        probe program: String, _ arguments: [String]
    ) async throws {
        try await Condition.wait(what, timeout: timeout, interval: interval) { () async throws -> Bool in
            guard isRunning else { throw ExitedEarly(what: what, status: terminationStatus) }
            return try await ProcessRun.run(program, arguments).succeeded
        }
    }

    /// The process ended before it served.
    struct ExitedEarly: Error, CustomStringConvertible {
        let what: String
        let status: Int32
        var description: String { "exited with status \(status) before: \(what)" }
    }
}
