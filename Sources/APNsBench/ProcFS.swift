import Foundation

/// What `/proc` says of the other processes of a run (the broker, the worker, the mock APNs): CPU
/// time, to split the machine's cores between them, and peak memory.
enum ProcFS {
    /// Seconds of CPU (user + system) `pid` has used so far, or nil once it is gone.
    static func cpuSeconds(pid: Int32) -> Double? {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
            let afterName = stat.lastIndex(of: ")")
        else { return nil }
        // Fields after "(comm)": state is the 3rd field of the line, utime and stime the 14th and 15th.
        let fields = stat[stat.index(after: afterName)...].split(separator: " ")
        guard fields.count > 12, let user = Double(fields[11]), let system = Double(fields[12]) else { return nil }
        return (user + system) / Double(sysconf(Int32(_SC_CLK_TCK)))
    }

    /// The share of the machine's CPU time (all cores together) that was busy while `body` ran, from
    /// the first line of `/proc/stat`; nil if it cannot be read.
    static func busyShare(during body: () async throws -> Void) async rethrows -> Double? {
        let start = machineTicks()
        try await body()
        guard let start, let end = machineTicks(), end.total > start.total else { return nil }
        return (end.busy - start.busy) / (end.total - start.total)
    }

    /// The machine's CPU time so far, in clock ticks: busy (everything but idle and I/O wait) and in total.
    private static func machineTicks() -> (busy: Double, total: Double)? {
        guard let stat = try? String(contentsOfFile: "/proc/stat", encoding: .utf8), let line = stat.split(separator: "\n").first else { return nil }
        // "cpu user nice system idle iowait irq softirq steal guest guest_nice": guest time is already
        // counted in user and nice.
        let ticks = line.split(separator: " ").dropFirst().prefix(8).compactMap { Double($0) }
        guard ticks.count == 8 else { return nil }
        let total = ticks.reduce(0, +)
        return (total - ticks[3] - ticks[4], total)
    }

    /// Peak resident memory of `pid` so far (`VmHWM`), in MiB, or nil once it is gone.
    static func peakRSSMiB(pid: Int32) -> Double? {
        guard let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8),
            let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmHWM:") }),
            let kilobytes = Double(line.split(separator: " ").dropFirst().first ?? "")
        else { return nil }
        return kilobytes / 1024
    }

    /// The test broker's Erlang VM (read only: the benchmark never signals it), found by the pid file
    /// `scripts/rabbitmq.sh` keeps, else by name.
    static var brokerPID: Int32? {
        let pidFile = URL(fileURLWithPath: ".scratch/rabbitmq/rabbitmq.pid")
        if let text = try? String(contentsOf: pidFile, encoding: .utf8), let pid = Int32(text.trimmingCharacters(in: .whitespacesAndNewlines)) {
            return pid
        }
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
        return entries.compactMap(Int32.init).first { pid in
            (try? String(contentsOfFile: "/proc/\(pid)/comm", encoding: .utf8))?.hasPrefix("beam.smp") == true
        }
    }
}
