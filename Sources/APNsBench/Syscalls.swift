import Foundation

/// `strace -c -f` around a run (the benchmark's loops run as processes of their own under it): the
/// calls each system call made, from its summary table.
enum Syscalls {
    static let strace = "/usr/bin/strace"

    /// The calls per system call of a loop `run` starts under the wrapper command it is given (`strace
    /// -c -f` writing its summary to a temporary file).
    static func counted(_ run: (_ wrapper: [String]) async throws -> Void) async throws -> [String: Int] {
        let summary = FileManager.default.temporaryDirectory.appendingPathComponent("apns-bench-strace-\(UUID().uuidString).txt").path
        defer { try? FileManager.default.removeItem(atPath: summary) }
        try await run([strace, "-c", "-f", "-o", summary])
        return try counts(inSummary: summary)
    }

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
}
