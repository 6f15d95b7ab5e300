/// Percentiles of a set of latencies, in milliseconds.
struct LatencySummary {
    let p50: Double
    let p99: Double
    let p999: Double

    init(_ samples: [Double]) {
        let sorted = samples.sorted()
        func percentile(_ p: Double) -> Double {
            guard !sorted.isEmpty else { return .nan }
            return sorted[min(sorted.count - 1, Int(Double(sorted.count) * p))]
        }
        p50 = percentile(0.50)
        p99 = percentile(0.99)
        p999 = percentile(0.999)
    }
}
