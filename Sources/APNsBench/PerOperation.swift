/// Microseconds per call of a synchronous operation: a warm-up batch, then `batches` batches of
/// `perBatch` calls each, summarised by the batches' median and deciles.
struct PerOperation {
    let batches: Int
    let perBatch: Int

    func measure(_ operation: () throws -> Void) rethrows -> (median: Double, p10: Double, p90: Double) {
        let clock = ContinuousClock()
        for _ in 0..<perBatch { try operation() }
        var samples: [Double] = []
        for _ in 0..<batches {
            let elapsed = try clock.measure { for _ in 0..<perBatch { try operation() } }
            samples.append(elapsed.microseconds / Double(perBatch))
        }
        samples.sort()
        return (samples[samples.count / 2], samples[samples.count / 10], samples[samples.count * 9 / 10])
    }
}

extension Duration {
    var microseconds: Double {
        let (seconds, attoseconds) = components
        return Double(seconds) * 1e6 + Double(attoseconds) / 1e12
    }
}
