import Foundation

/// `strace -c -f` around a run: the calls each system call made, from its summary table.
enum Syscalls {
    static let strace = "/usr/bin/strace"

    /// Calls per system call in the summary `strace -c -o path` wrote.
    static func counts(inSummary path: String) throws -> [String: Int] {
        let text = try String(contentsOfFile: path, encoding: .utf8)
        var counts: [String: Int] = [:]
        for line in text.split(separator: "\n") {
            // "% time  seconds  usecs/call  calls  errors  syscall": errors may be blank.
            let fields = line.split(separator: " ")
            guard fields.count >= 5, Double(fields[0]) != nil, let name = fields.last, name != "total" else { continue }
            guard let calls = Int(fields[3]) else { continue }
            counts[String(name)] = calls
        }
        return counts
    }

    /// Attaches to process `pid` (all its threads) until `stop()` of the returned tracer.
    static func attach(to pid: Int32) throws -> Tracer {
        let output = FileManager.default.temporaryDirectory.appendingPathComponent("apns-bench-strace-\(UUID().uuidString).txt").path
        let process = Process()
        process.executableURL = URL(fileURLWithPath: strace)
        process.arguments = ["-c", "-f", "-o", output, "-p", String(pid)]
        let errors = Pipe()
        process.standardError = errors
        try process.run()
        // strace says "Process N attached" once it traces; before that, calls would go uncounted.
        var said = ""
        while !said.contains("attached"), process.isRunning {
            let data = errors.fileHandleForReading.availableData
            if data.isEmpty { break }
            said += String(decoding: data, as: UTF8.self)
        }
        return Tracer(process: process, output: output)
    }

    struct Tracer {
        let process: Process
        let output: String

        /// Detaches and reads what was counted.
        func stop() throws -> [String: Int] {
            process.interrupt()
            process.waitUntilExit()
            defer { try? FileManager.default.removeItem(atPath: output) }
            return try Syscalls.counts(inSummary: output)
        }
    }
}
