import APNsClient
import Foundation
import Testing
import Worker

/// The metric names an operator reads in the docs, the alert rules and the dashboard are the ones the
/// code creates (``MetricCatalog``, the list the code makes its instruments from), and the reference
/// table in docs/operations.md describes each with its kind and labels.
@Suite struct DocumentedMetricsTests {
    /// Where operators read metric names.
    static let folders = ["docs", "deploy", "config"]
    static let files = ["README.md"]

    /// Every `apns_…` / `amqp_…` word in the operator-facing files, with the file it is in; a word
    /// written as a call (`amqp_encode_method()`, rabbitmq-c's API) is a function, not a metric.
    static func mentions() throws -> [(name: String, file: String)] {
        var paths = files
        for folder in folders {
            let found = FileManager.default.enumerator(atPath: RepositoryFiles.url(folder).path)?.compactMap { $0 as? String } ?? []
            paths += found.filter { [".md", ".yaml", ".yml", ".json"].contains(where: $0.hasSuffix) }.map { "\(folder)/\($0)" }
        }
        return try paths.flatMap { path in
            try RepositoryFiles.text(path).matches(of: #/\b(?:apns|amqp)_[a-z0-9_]+\b(?!\()/#).map { (String($0.output), path) }
        }
    }

    /// Names that are message fields, not metrics: every property the JSON schemas define.
    static func fieldNames() throws -> Set<String> {
        let schemas = try RepositoryFiles.files(in: "schemas", endingWith: ".json")
        return Set(try schemas.flatMap { try RepositoryFiles.text("schemas/\($0)").matches(of: #/"([a-z_]+)"\s*:/#).map { String($0.output.1) } })
    }

    /// A family's name as a sample line names it: histograms add `_bucket`, `_sum`, `_count`.
    static func family(of name: String) -> String {
        for suffix in ["_bucket", "_sum", "_count"] where name.hasSuffix(suffix) {
            let base = String(name.dropLast(suffix.count))
            if MetricCatalog.all.contains(where: { $0.name == base && $0.kind == .histogram }) { return base }
        }
        return name
    }

    @Test func everyMetricNamedInTheDocsIsOneTheWorkerExports() throws {
        let known = Set(MetricCatalog.all.map(\.name))
        let fields = try Self.fieldNames()
        let mentions = try Self.mentions()
        #expect(mentions.count > 50, "the scan found suspiciously few names")
        for (name, file) in mentions where !fields.contains(name) {
            #expect(known.contains(Self.family(of: name)), "\(file) names \(name), which no worker exports")
        }
    }

    @Test func theReferenceTableDescribesEveryMetricWithItsKindAndLabels() throws {
        let rows = try RepositoryFiles.text("docs/operations.md").split(separator: "\n").filter { $0.hasPrefix("| `") }
        for metric in MetricCatalog.all {
            let row = rows.first { $0.split(separator: "|").first?.contains("`\(metric.name)`") == true }
            guard let cells = row?.split(separator: "|", omittingEmptySubsequences: false).map({ $0.trimmingCharacters(in: .whitespaces) }), cells.count >= 5 else {
                Issue.record("docs/operations.md has no row for \(metric.name)")
                continue
            }
            #expect(cells[2].contains(metric.kind.rawValue), "\(metric.name): documented as \(cells[2]), is a \(metric.kind)")
            let documented = Set(cells[3].matches(of: #/`([a-z_]+)`/#).map { String($0.output.1) })
            #expect(documented == Set(metric.labels), "\(metric.name): documented labels \(documented.sorted()), exported \(metric.labels)")
        }
    }

    @Test func catalogNamesFollowPrometheusConventions() {
        let names = MetricCatalog.all.map(\.name)
        #expect(Set(names).count == names.count, "a name twice")
        for metric in MetricCatalog.all {
            #expect(metric.name.wholeMatch(of: #/(apns|amqp)_[a-z0-9_]+/#) != nil, "\(metric.name)")
            #expect((metric.kind == .counter) == metric.name.hasSuffix("_total"), "\(metric.name): counters and only counters end in _total")
            #expect(!metric.help.isEmpty && !metric.help.contains("\n"), "\(metric.name): one line of help")
        }
    }

    @Test func helpLinesGoBeforeTheirTypeLines() {
        let exposition = Array("# TYPE apns_prefetch gauge\napns_prefetch 200\n# TYPE other_metric counter\nother_metric 1\n".utf8)
        let text = String(decoding: MetricCatalog.withHelp(exposition), as: UTF8.self)
        let help = MetricCatalog.all.first { $0.name == "apns_prefetch" }!.help
        #expect(text == "# HELP apns_prefetch \(help)\n# TYPE apns_prefetch gauge\napns_prefetch 200\n# TYPE other_metric counter\nother_metric 1\n")
    }
}
