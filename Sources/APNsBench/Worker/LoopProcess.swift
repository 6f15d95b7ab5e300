import Foundation

/// A benchmark loop run as a process of its own (the bare C loop, the limit loop), with the broker's
/// CPU per job over its run: what both loops' measurements share.
enum LoopProcess {
    /// Runs `command` (under `wrapper`, a command that takes it as its arguments, when given) and
    /// returns what it printed and the broker's and the loop's CPU per job for `jobs`, as sampled from
    /// /proc just before it exits (/proc forgets a process's CPU once it is reaped).
    static func run(_ command: [String], wrapper: [String] = [], name: String, jobs: Int) async throws -> (output: String, status: Int32, cpuPerJob: [String: Double]) {
        let full = wrapper + command
        let process = Process()
        process.executableURL = URL(fileURLWithPath: full[0])
        process.arguments = Array(full.dropFirst())
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        var cpu = WorkerBenchmark.CPUMeter()
        cpu.start("broker", pids: ProcFS.brokerPID.map { [$0] } ?? [])
        cpu.start(name, pids: [process.processIdentifier])
        var cpuPerJob: [String: Double] = [:]
        while process.isRunning {
            cpuPerJob = cpu.perJob(jobs)
            try await Task.sleep(for: .milliseconds(20))
        }
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        return (text, process.terminationStatus, cpuPerJob)
    }
}
