import APNsClient
import Foundation
import Testing
import Worker

extension DeploymentFilesTests {
    /// `deploy/grafana/apns-worker.json`: the dashboard over the worker's Prometheus metrics.
    @Suite struct Grafana {
        static let file = "deploy/grafana/apns-worker.json"

        /// Every metric the worker exports, from the catalog its code creates them from, as Prometheus
        /// names them (histograms by their buckets).
        static let metrics = MetricCatalog.all.map { $0.kind == .histogram ? $0.name + "_bucket" : $0.name }

        /// Every panel, rows' nested panels included.
        static func panels(_ dashboard: StructuredValue) -> [StructuredValue] {
            dashboard["panels"].array.flatMap { [$0] + $0["panels"].array }
        }

        static func expressions(_ dashboard: StructuredValue) -> [String] {
            panels(dashboard).flatMap { $0["targets"].array.compactMap { $0["expr"].string } }
        }

        @Test func parsesWithTheFiveRowsInOrder() throws {
            let dashboard = try RepositoryFiles.json(Self.file)
            #expect((dashboard["schemaVersion"].int ?? 0) >= 36)
            #expect(dashboard["uid"].string == "apns-worker")
            let rows = Self.panels(dashboard).filter { $0["type"].string == "row" }.compactMap { $0["title"].string }
            #expect(rows == ["Throughput & outcomes", "APNs latency", "Connections", "Tokens", "Broker"])
            let ids = Self.panels(dashboard).compactMap { $0["id"].int }
            #expect(ids.count == Self.panels(dashboard).count && Set(ids).count == ids.count, "every panel needs a unique id")
            #expect(Self.panels(dashboard).allSatisfy { !$0["gridPos"].isNull })
        }

        @Test func everyQueryUsesTheDatasourceVariable() throws {
            let dashboard = try RepositoryFiles.json(Self.file)
            let variables = dashboard["templating"]["list"].array
            let datasource = try #require(variables.first { $0["type"] == .string("datasource") })
            #expect(datasource["query"].string == "prometheus")
            let reference = "${\(datasource["name"].string ?? "")}"
            for panel in Self.panels(dashboard) where panel["type"].string != "row" {
                #expect(panel["datasource"]["uid"].string == reference, "\(panel["title"].string ?? "?") uses a fixed data source")
                #expect(panel["targets"].array.allSatisfy { $0["datasource"]["uid"].string == reference })
                #expect(!panel["targets"].array.isEmpty, "\(panel["title"].string ?? "?") has no query")
            }
        }

        @Test func everyWorkerMetricAppearsInAPanelQuery() throws {
            let expressions = Self.expressions(try RepositoryFiles.json(Self.file))
            for metric in Self.metrics {
                // A whole name: apns_jobs_received_total must not count as apns_jobs_received.
                let used = expressions.contains { expression in
                    expression.ranges(of: metric).contains { range in
                        let after = range.upperBound == expression.endIndex ? nil : expression[range.upperBound]
                        return after.map { !($0.isLetter || $0.isNumber || $0 == "_") } ?? true
                    }
                }
                #expect(used, "no panel queries \(metric)")
            }
        }

        @Test func histogramsAreReadAsP50AndP99() throws {
            let expressions = Self.expressions(try RepositoryFiles.json(Self.file))
            for expression in expressions where expression.contains("_bucket") {
                #expect(expression.contains("histogram_quantile("), "a bucket series means nothing raw: \(expression)")
                #expect(expression.contains("le"), "quantiles need the le label kept: \(expression)")
            }
            for histogram in ["apns_request_duration_seconds_bucket", "amqp_publish_confirm_duration_seconds_bucket"] {
                for quantile in ["0.5", "0.99"] {
                    #expect(expressions.contains { $0.contains("histogram_quantile(\(quantile),") && $0.contains(histogram) }, "no p\(quantile) of \(histogram)")
                }
            }
        }
    }
}
