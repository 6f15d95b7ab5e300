import Foundation
import Worker

/// Counts and latencies of a stream of results, and the table the demo prints.
struct ResultSummary {
    private(set) var count = 0
    private var unreadable = 0
    private var byOutcome: [String: Int] = [:]
    private var latencies: [Int64] = []
    private var first: Date?
    /// Multicast summaries: how many, and their tokens by outcome (a job's retried tokens come in later results).
    private var multicastResults = 0
    private var tokens = TokenCounts()
    private var tokenFailures: [String: Int] = [:]
    private var last: Date?

    mutating func add(_ result: JobResult?) {
        count += 1
        guard let result else {
            unreadable += 1
            return
        }
        if let counts = result.tokens {
            multicastResults += 1
            tokens.delivered += counts.delivered
            tokens.rejected += counts.rejected
            tokens.failed += counts.failed
            tokens.expired += counts.expired
            tokens.retrying += counts.retrying
            tokens.repeated += counts.repeated
            for failure in result.failures ?? [] { tokenFailures["\(failure.status.rawValue) \(failure.reason ?? "")", default: 0] += 1 }
        }
        var key = result.reason.map { "\(result.status.rawValue) \($0)" } ?? (result.tokens != nil ? "multicast \(result.status.rawValue)" : result.status.rawValue)
        if let action = result.channelAction { key = "channel \(action) \(key)" + (result.channels.map { " (\($0.count) channels)" } ?? "") }
        byOutcome[key, default: 0] += 1
        if let latency = result.latencyMS { latencies.append(latency) }
        first = min(first ?? result.completedAt, result.completedAt)
        last = max(last ?? result.completedAt, result.completedAt)
    }

    func report() -> String {
        var lines = ["\(count) result(s)" + (unreadable > 0 ? " (\(unreadable) unreadable)" : "")]
        for (outcome, number) in byOutcome.sorted(by: { $0.value > $1.value }) {
            lines.append("  " + outcome.padding(toLength: 40, withPad: " ", startingAt: 0) + String(format: "%6d", number))
        }
        if multicastResults > 0 {
            lines.append("multicast tokens in \(multicastResults) result(s): delivered \(tokens.delivered), rejected \(tokens.rejected), failed \(tokens.failed), expired \(tokens.expired); \(tokens.retrying) sent on to a retry (answered by a later result)")
            for (outcome, number) in tokenFailures.sorted(by: { $0.value > $1.value }) {
                lines.append("  token " + outcome.padding(toLength: 34, withPad: " ", startingAt: 0) + String(format: "%6d", number))
            }
        }
        if !latencies.isEmpty {
            let sorted = latencies.sorted()
            func percentile(_ p: Double) -> Int64 { sorted[min(sorted.count - 1, Int(Double(sorted.count) * p))] }
            lines.append("latency (enqueue → result) ms: p50 \(percentile(0.5)), p99 \(percentile(0.99)), max \(sorted.last!)")
        }
        // Completion times are whole milliseconds: a rate over less than a second says nothing.
        if let first, let last, last.timeIntervalSince(first) >= 1 {
            lines.append(String(format: "throughput: %.0f results/s over %.1f s", Double(count) / last.timeIntervalSince(first), last.timeIntervalSince(first)))
        }
        return lines.joined(separator: "\n")
    }
}
