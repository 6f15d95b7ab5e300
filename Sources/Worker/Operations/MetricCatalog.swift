public import APNsClient

/// Every metric a worker process exports (the client's and the worker's own), and the `# HELP` lines
/// a scrape carries for them.
public enum MetricCatalog {
    public static let all: [MetricDescription] = ClientMetrics.catalog + WorkerMetrics.catalog

    private static let helpByName = Dictionary(uniqueKeysWithValues: all.map { ($0.name, $0.help) })

    /// `exposition` (Prometheus text, as the registry writes it: a `# TYPE` line before each family)
    /// with each catalogued family's `# HELP` line put before its `# TYPE` line.
    public static func withHelp(_ exposition: [UInt8]) -> [UInt8] {
        let typePrefix = Array("# TYPE ".utf8)
        var output: [UInt8] = []
        output.reserveCapacity(exposition.count + all.count * 80)
        for line in exposition.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false) {
            if line.starts(with: typePrefix) {
                let name = String(decoding: line.dropFirst(typePrefix.count).prefix { $0 != UInt8(ascii: " ") }, as: UTF8.self)
                if let help = helpByName[name] { output += Array("# HELP \(name) \(help)\n".utf8) }
            }
            output += line
            output.append(UInt8(ascii: "\n"))
        }
        // split keeps a last empty piece after the final newline; it added one newline too many.
        if exposition.last == UInt8(ascii: "\n") { output.removeLast() }
        return output
    }
}
