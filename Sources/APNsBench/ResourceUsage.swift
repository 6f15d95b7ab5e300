#if canImport(Glibc)
import Glibc
#endif

/// CPU time and peak memory of this process, from getrusage.
struct ResourceUsage {
    let cpuSeconds: Double
    let peakRSSMiB: Double

    static func now() -> ResourceUsage {
        var usage = rusage()
        getrusage(RUSAGE_SELF.rawValue, &usage)
        let cpu = Double(usage.ru_utime.tv_sec) + Double(usage.ru_utime.tv_usec) / 1e6
            + Double(usage.ru_stime.tv_sec) + Double(usage.ru_stime.tv_usec) / 1e6
        return ResourceUsage(cpuSeconds: cpu, peakRSSMiB: Double(usage.ru_maxrss) / 1024)
    }
}
