import AMQP
import Foundation
import WorkerConfiguration

/// Where the worker's CPU goes: a `perf` profile (the software event `cpu-clock`, with call graphs) of
/// the worker under full load, each sample given to the first frame from the leaf up that belongs to a
/// part of the job's path. Samples in shared code (the kernel, libc, the Swift and concurrency runtimes,
/// APNsCore's value types, locks) go to whichever part called them; samples with no such frame go to
/// the rest (the event loops carry both AMQP and HTTP/2, so their thread says nothing of the part).
extension WorkerBenchmark {
    struct Profile: Codable {
        let samples: Int
        /// The worker's CPU per job over the profiled window, in microseconds.
        let cpuMicrosecondsPerJob: Double
        /// Each part's share of the samples, 0…1.
        let shares: [String: Double]
        /// The largest symbols of the profile, by samples, for reading.
        let topSymbols: [Symbol]
        var microsecondsPerJob: [String: Double] { shares.mapValues { $0 * cpuMicrosecondsPerJob } }

        struct Symbol: Codable {
            let name: String
            let library: String
            let share: Double
        }
    }

    /// The parts of a job's path, in the order they are printed.
    static let profileParts = ["AMQP", "HTTP/2 + TLS", "job decoding + result encoding", "the rest"]

    func profile(count: Int, seconds: Int, dataFile: String) async throws -> Profile {
        let environment = try BenchEnvironment(prefetch: 500, connections: 2)
        let loader = try await environment.client("loader")
        try await JobLoader.load(count, into: loader, topology: environment.settings.topology)
        await loader.close()
        let worker = try WorkerProcess(settings: environment.settings)
        defer { worker.stop() }
        let pid = worker.process.processIdentifier
        // Past the start (connections, the first token, caches), into the steady state.
        while (worker.acked() ?? 0) < count / 10 {
            try worker.checkRunning()
            try await Task.sleep(for: .milliseconds(50))
        }
        let ackedBefore = worker.acked() ?? 0
        let cpuBefore = ProcFS.cpuSeconds(pid: pid) ?? 0
        try await Self.record(pid: pid, seconds: seconds, into: dataFile)
        let jobs = (worker.acked() ?? 0) - ackedBefore
        let cpu = (ProcFS.cpuSeconds(pid: pid) ?? 0) - cpuBefore
        guard jobs < count - ackedBefore else { throw BenchError("the worker ran out of jobs while profiled: load more than \(count)") }
        await environment.tearDown()
        let script = try Self.run("/usr/bin/perf", ["script", "-i", dataFile, "-F", "comm,ip,sym,dso"])
        return Self.split(script, cpuMicrosecondsPerJob: cpu * 1e6 / Double(max(jobs, 1)))
    }

    /// Classifies `perf script` output (samples separated by blank lines: a header line with the
    /// thread's name, then one frame per line, leaf first: `ip symbol (library)`).
    static func split(_ script: String, cpuMicrosecondsPerJob: Double) -> Profile {
        var counts: [String: Int] = [:]
        var leaves: [String: Int] = [:]
        var samples = 0
        for sample in script.split(separator: "\n\n") {
            let lines = sample.split(separator: "\n")
            guard !lines.isEmpty else { continue }
            // The first line is the sample's header (thread, time); the frames follow.
            let frames = lines.dropFirst().map(Frame.init)
            samples += 1
            if let leaf = frames.first { leaves["\(leaf.symbol)\t\(leaf.library)", default: 0] += 1 }
            let part = frames.lazy.compactMap(\.part).first ?? "the rest"
            counts[part, default: 0] += 1
        }
        let total = Double(max(samples, 1))
        let top = leaves.sorted { $0.value > $1.value }.prefix(25).map { entry in
            let fields = entry.key.split(separator: "\t", omittingEmptySubsequences: false)
            return Profile.Symbol(name: String(fields[0]), library: String(fields.count > 1 ? fields[1] : ""), share: Double(entry.value) / total)
        }
        return Profile(
            samples: samples, cpuMicrosecondsPerJob: cpuMicrosecondsPerJob,
            shares: Dictionary(uniqueKeysWithValues: profileParts.map { ($0, Double(counts[$0] ?? 0) / total) }), topSymbols: top
        )
    }

    /// One stack frame of `perf script`.
    struct Frame {
        let symbol: String
        let library: String

        init(_ line: Substring) {
            // "\t    7f12ab symbol+0x12 (/usr/lib/x86_64-linux-gnu/librabbitmq.so.4)"
            let text = line.trimmingCharacters(in: .whitespaces)
            let afterAddress = text.drop { $0 != " " }.dropFirst()
            if let open = afterAddress.lastIndex(of: "(") {
                symbol = String(afterAddress[..<open]).trimmingCharacters(in: .whitespaces)
                library = String(afterAddress[afterAddress.index(after: open)...].dropLast())
            } else {
                symbol = String(afterAddress)
                library = ""
            }
        }

        /// The part of the job's path this frame is in, or nil for shared code.
        var part: String? {
            let file = library.split(separator: "/").last.map(String.init) ?? library
            if file.hasPrefix("librabbitmq") { return "AMQP" }
            if file.hasPrefix("libnghttp2") || file.hasPrefix("libssl") || file.hasPrefix("libcrypto") { return "HTTP/2 + TLS" }
            // Swift symbols, still mangled: `$s` then the module's name with its length.
            for (module, part) in Self.modules where symbol.hasPrefix(module) {
                if part == "Worker" {
                    return Self.codecTypes.contains { symbol.contains($0) } ? "job decoding + result encoding" : "the rest"
                }
                return part
            }
            return nil
        }

        static let modules: [(String, String)] = [
            ("$s4AMQP", "AMQP"), ("$s5HTTP2", "HTTP/2 + TLS"), ("$s3TLS", "HTTP/2 + TLS"), ("$s9Transport", "HTTP/2 + TLS"),
            ("$s10APNsClient", "HTTP/2 + TLS"), ("$s7NIOCore", "HTTP/2 + TLS"), ("$s8NIOPosix", "HTTP/2 + TLS"),
            ("$s4JSON", "job decoding + result encoding"), ("$s6Worker", "Worker"),
        ]
        /// The worker's types that read a job or write its result and messages.
        static let codecTypes = ["JobDecoder", "FieldReader", "JobEnvelope", "JobResult", "UTCTimestamp", "OutgoingMessages", "JobIdentifier"]
    }


    /// `perf record` of `pid` for `seconds`, stopped by SIGINT as at a terminal. Spawned with an empty
    /// signal mask: a child of `Process` inherits the blocked signals of the runtime's thread that
    /// spawned it, and perf with SIGINT and SIGCHLD blocked never stops (it spins at full CPU instead).
    static func record(pid: Int32, seconds: Int, into dataFile: String) async throws {
        let perf = try spawnWithSignalsUnblocked("/usr/bin/perf", ["record", "-q", "-e", "cpu-clock", "-F", "999", "-g", "-p", String(pid), "-o", dataFile])
        try await Task.sleep(for: .seconds(seconds))
        kill(perf, SIGINT)
        let deadline = ContinuousClock.now + .seconds(30)
        var status: Int32 = 0
        while waitpid(perf, &status, WNOHANG) == 0 {
            guard ContinuousClock.now < deadline else {
                kill(perf, SIGKILL)
                _ = waitpid(perf, &status, 0)
                throw BenchError("perf record did not finish within 30 s of SIGINT")
            }
            try await Task.sleep(for: .milliseconds(100))
        }
    }

    /// Starts `executable` with no blocked signals and default handlers, its output discarded.
    static func spawnWithSignalsUnblocked(_ executable: String, _ arguments: [String]) throws -> pid_t {
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var none = sigset_t()
        sigemptyset(&none)
        posix_spawnattr_setsigmask(&attributes, &none)
        var caught = sigset_t()
        sigemptyset(&caught)
        for signal in [SIGINT, SIGTERM, SIGCHLD, SIGPIPE] { sigaddset(&caught, signal) }
        posix_spawnattr_setsigdefault(&attributes, &caught)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
        var files = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&files)
        defer { posix_spawn_file_actions_destroy(&files) }
        posix_spawn_file_actions_addopen(&files, 1, "/dev/null", O_WRONLY, 0)
        posix_spawn_file_actions_addopen(&files, 2, "/dev/null", O_WRONLY, 0)
        let argv = ([executable] + arguments).map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        var pid: pid_t = 0
        let failure = posix_spawn(&pid, executable, &files, &attributes, argv, environ)
        guard failure == 0 else { throw BenchError("cannot start \(executable): \(String(cString: strerror(failure)))") }
        return pid
    }

    /// Runs a command to the end; its standard output.
    @discardableResult
    static func run(_ executable: String, _ arguments: [String]) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { throw BenchError("\(executable) \(arguments.first ?? "") failed (exit \(process.terminationStatus))") }
        return String(decoding: data, as: UTF8.self)
    }
}
