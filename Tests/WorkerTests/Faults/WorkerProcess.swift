import AMQP
import APNsCore
import Foundation
import MockAPNs
import TestSupport
import Worker
import WorkerConfiguration
import NIOConcurrencyHelpers

/// The scenario's `apns-worker run` process, which actions may kill, stop and start again.
///
/// Started by ``WorkerHarness/startCommand(_:config:environment:log:appending:)``; every launch appends
/// to one log, and stopping never blocks a thread.
final class WorkerProcess: Sendable {
    let harness: WorkerHarness
    /// Added to the test process's environment (`APNS_WORKER__…` overrides).
    let environment: [String: String]
    /// Where its processes append their stderr: the harness's log, or one of its own for a second
    /// member of a fleet (concurrent writers to one file would overwrite each other's lines).
    let logPath: String
    private let state = NIOLockedValueBox<(current: Process?, launches: Int, exitStatuses: [Int32])>((nil, 0, []))

    init(harness: WorkerHarness, environment: [String: String] = [:], logPath: String? = nil) {
        self.harness = harness
        self.environment = environment
        self.logPath = logPath ?? harness.logPath
    }

    /// Processes started so far.
    var launches: Int { state.withLockedValue { $0.launches } }
    /// Exit statuses of the processes stopped so far (SIGKILL shows as 9).
    var exitStatuses: [Int32] { state.withLockedValue { $0.exitStatuses } }
    var isRunning: Bool { state.withLockedValue { $0.current?.isRunning ?? false } }

    /// Starts a worker process; the previous one must have been stopped.
    func launch() throws {
        try state.withLockedValue { state in
            precondition(state.current?.isRunning != true, "a worker process is already running")
            state.current = try harness.startCommand(["run"], environment: environment, log: logPath, appending: true)
            state.launches += 1
        }
    }

    /// `kill -9`: no drain, no goodbye to the broker.
    func kill() async {
        guard let process = state.withLockedValue({ $0.current }), process.isRunning else { return }
        Foundation.kill(process.processIdentifier, SIGKILL)
        await reap(process)
    }

    /// SIGTERM, then waits for the drain; after `timeout` it kills. Returns the exit status.
    @discardableResult
    func terminate(timeout: Duration = .seconds(60)) async -> Int32? {
        guard let process = state.withLockedValue({ $0.current }), process.isRunning else { return nil }
        process.terminate()
        let deadline = ContinuousClock.now + timeout
        while process.isRunning, ContinuousClock.now < deadline {
            await pause(.milliseconds(50))
        }
        if process.isRunning { Foundation.kill(process.processIdentifier, SIGKILL) }
        return await reap(process)
    }

    /// Waits (at most 30 s: a killed process goes at once) and notes the exit status.
    @discardableResult
    private func reap(_ process: Process) async -> Int32 {
        let deadline = ContinuousClock.now + .seconds(30)
        while process.isRunning, ContinuousClock.now < deadline {
            await pause(.milliseconds(20))
        }
        let status = process.isRunning ? -1 : process.terminationStatus
        state.withLockedValue { state in
            state.exitStatuses.append(status)
            if state.current === process { state.current = nil }
        }
        return status
    }
}
