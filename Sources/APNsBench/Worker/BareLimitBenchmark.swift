import AMQP
import Foundation
import WorkerConfiguration

/// The honest limit: `bench/bare-limit.c`, rabbitmq-c with nothing of this project's in between, on the
/// same pre-loaded jobs with the same prefetch (a same-sized result published with confirms, then the
/// ack). Built here with the system compiler against the system library, so the figure is what the
/// broker and the C library alone cost; the project's own limit loop adds the AMQP client's share.
extension WorkerBenchmark {
    /// Runs the loop (under `wrapper`, a command that takes it as its arguments, when given) on `count`
    /// pre-loaded jobs and measures it.
    func bareLimit(count: Int, prefetch: Int, wrapper: [String] = []) async throws -> Throughput {
        let binary = try Self.buildBareLimit()
        let environment = try BenchEnvironment(prefetch: prefetch, connections: 1)
        let loader = try await environment.client("loader")
        try await JobLoader.load(count, into: loader, topology: environment.settings.topology)
        await loader.close()
        let port = ProcessInfo.processInfo.environment["APNS_RABBITMQ_PORT"] ?? "5673"
        let topology = environment.settings.topology
        let arguments = ["127.0.0.1", port, topology.jobsQueue, topology.resultsExchange, String(count), String(prefetch)]
        var (text, status, cpuPerJob) = try await LoopProcess.run([binary] + arguments, wrapper: wrapper, name: "bare loop", jobs: count)
        let fields = text.split(separator: " ").map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }
        guard status == 0, fields.count == 3, let jobs = Int(fields[0]), let seconds = Double(fields[1]), let loopCPU = Double(fields[2]) else {
            throw BenchError("bare-limit failed (exit \(status)): \(text)")
        }
        // The loop's own account, from its first frame to its last job: start-up is not a job's cost.
        cpuPerJob["bare loop"] = loopCPU * 1e6 / Double(jobs)
        await environment.tearDown()
        return Throughput(jobs: jobs, seconds: seconds, cpuMicrosecondsPerJob: cpuPerJob)
    }

    /// `bench/bare-limit.c` compiled into `.build/bare-limit` (again when the source is newer).
    static func buildBareLimit() throws -> String {
        let source = "bench/bare-limit.c"
        let binary = ".build/bare-limit"
        let modified = { (path: String) in (try? FileManager.default.attributesOfItem(atPath: path)[.modificationDate] as? Date) ?? nil }
        if let built = modified(binary), let written = modified(source), built >= written { return binary }
        let compiler = Process()
        compiler.executableURL = URL(fileURLWithPath: "/bin/sh")
        compiler.arguments = ["-c", "cc -O2 -Wall -Werror -o \(binary) \(source) $(pkg-config --cflags --libs librabbitmq)"]
        try compiler.run()
        compiler.waitUntilExit()
        guard compiler.terminationStatus == 0 else { throw BenchError("cannot build \(source) (cc and librabbitmq-dev are needed)") }
        return binary
    }
}
