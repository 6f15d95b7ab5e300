import APNsClient
import CAllocator
import Foundation
import JSON

/// The client against h2load on the same mock: notifications/s, latency, CPU and memory, and the ratio.
struct ClientComparison {
    let count: Int
    let streams: Int

    /// A realistic alert of about 300 bytes.
    static let payload = Array(
        #"{"aps":{"alert":{"title":"Your order has shipped","subtitle":"Order #48213","body":"Your package is on its way and should arrive on Thursday. Tap to follow it on the map."},"badge":3,"sound":"default","thread-id":"orders","mutable-content":1},"order_id":"48213","deep_link":"shop://orders/48213","campaign":"ship-notice-v2"}"#.utf8
    )
    static let deviceToken = String(repeating: "5f", count: 32)

    let rounds: Int
    /// Where client.json goes, for docs/benchmarks.md; nil writes none.
    var output: String?

    func run() async throws {
        print("client vs h2load: \(count) notifications of \(Self.payload.count) bytes, server allows \(streams) streams per connection, \(rounds) rounds (medians); the client's malloc: \(String(cString: CAllocator_description()))")
        var rows: [(String, Double, String, String, String)] = []
        var ratios: [ClientBenchmark.Callers: [Int: [Double]]] = [:]
        for connections in [1, 4] {
            var h2Runs: [H2Load.Result] = []
            var clientRuns: [ClientBenchmark.Callers: [ClientBenchmark.Result]] = [:]
            for _ in 0..<rounds {
                // Alternate the runs so drift on a shared machine hits all alike.
                let h2 = try withMock { port in
                    try H2Load(count: count, payload: Self.payload, deviceToken: Self.deviceToken).run(connections: connections, streamsPerConnection: streams, port: port)
                }
                if h2.succeeded != count { print("  warning: h2load: \(h2.succeeded) of \(count) succeeded\n\(h2.output)") }
                h2Runs.append(h2)
                for callers in ClientBenchmark.Callers.allCases {
                    let client = try await withMockAsync { port in
                        try await ClientBenchmark(count: count, payload: Self.payload, deviceToken: Self.deviceToken, callers: callers)
                            .run(connections: connections, streamsPerConnection: streams, port: port)
                    }
                    if client.failures > 0 { print("  warning: \(client.failures) client sends were not accepted") }
                    ratios[callers, default: [:]][connections, default: []].append(client.rate / h2.rate)
                    clientRuns[callers, default: []].append(client)
                }
            }
            let h2 = h2Runs.median(by: \.rate)
            rows.append(("h2load, \(connections) connection(s)", h2.rate, h2.meanLatencyMilliseconds.map { String(format: "mean %.2f", $0) } ?? "-", "-", "-"))
            for callers in ClientBenchmark.Callers.allCases {
                let client = clientRuns[callers, default: []].median(by: \.rate)
                let stats = client.statistics
                print("  client, \(connections) connection(s), \(callers.label), median run: \(stats.connectionsEstablished) connections opened, GOAWAYs \(stats.goAwaysByReason), \(stats.refusedStreams) refused streams, \(stats.transparentResends) re-sends, \(stats.timeouts) timeouts")
                rows.append((
                    "apns-worker client, \(connections) connection(s), \(callers.label)", client.rate,
                    String(format: "%.2f / %.2f / %.2f", client.latency.p50, client.latency.p99, client.latency.p999),
                    String(format: "%.1f", client.cpuMicrosecondsPerNotification), String(format: "%.0f", client.peakRSSMiB)
                ))
            }
        }
        print("")
        print(pad("run (median of \(rounds))", 68) + pad("notifications/s", 17) + pad("latency ms p50/p99/p99.9", 28) + pad("CPU µs/notif", 14) + "peak RSS MiB")
        for row in rows {
            print(pad(row.0, 68) + pad(String(format: "%.0f", row.1), 17) + pad(row.2, 28) + pad(row.3, 14) + row.4)
        }
        let medians = ratios.mapValues { $0.mapValues(\.median) }
        try writeJSON(rows: rows, ratios: medians, callbackRounds: ratios[.callbacks, default: [:]].mapValues { $0.sorted() })
        for callers in ClientBenchmark.Callers.allCases {
            let byConnections = ratios[callers, default: [:]]
            print(String(
                format: "ratio client ÷ h2load, \(callers.label), median: one connection %.2f (target ≥ 0.95; rounds %@), four connections %.2f (target ≥ 0.90; rounds %@)",
                medians[callers]?[1] ?? .nan, Self.list(byConnections[1, default: []].sorted()), medians[callers]?[4] ?? .nan, Self.list(byConnections[4, default: []].sorted())
            ))
        }
    }

    private static func list(_ ratios: [Double]) -> String { ratios.map { String(format: "%.2f", $0) }.joined(separator: ", ") }

    /// The table as JSON next to the worker's figures, for docs/benchmarks.md.
    /// `callbackRounds`: each round's ratio with callbacks, by connections: on this shared machine the
    /// rounds of one run spread widely, and the median alone hides it.
    private func writeJSON(rows: [(String, Double, String, String, String)], ratios: [ClientBenchmark.Callers: [Int: Double]], callbackRounds: [Int: [Double]]) throws {
        let document: JSONValue = [
            "notifications": JSONValue(count) ?? .null, "streams": JSONValue(streams) ?? .null, "rounds": JSONValue(rounds) ?? .null,
            "allocator": .string(String(cString: CAllocator_description())),
            "ratioOneConnection": .number(ratios[.cooperativePool]?[1] ?? .nan), "ratioFourConnections": .number(ratios[.cooperativePool]?[4] ?? .nan),
            "ratioOneConnectionOnLoop": .number(ratios[.eventLoop]?[1] ?? .nan), "ratioFourConnectionsOnLoop": .number(ratios[.eventLoop]?[4] ?? .nan),
            "ratioOneConnectionCallbacks": .number(ratios[.callbacks]?[1] ?? .nan), "ratioFourConnectionsCallbacks": .number(ratios[.callbacks]?[4] ?? .nan),
            "roundsOneConnectionCallbacks": .array(callbackRounds[1, default: []].map { .number($0) }),
            "roundsFourConnectionsCallbacks": .array(callbackRounds[4, default: []].map { .number($0) }),
            "rows": .array(rows.map { ["run": .string($0.0), "rate": .number($0.1), "latency": .string($0.2), "cpuMicroseconds": .string($0.3), "peakRSSMiB": .string($0.4)] }),
        ]
        guard let output else { return }
        let directory = URL(fileURLWithPath: output)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        try Data(document.encodedForReading()).write(to: directory.appendingPathComponent("client.json"))
    }

    private func pad(_ text: String, _ width: Int) -> String {
        text.count >= width ? text + " " : text + String(repeating: " ", count: width - text.count)
    }

    private func withMock<T>(_ body: (Int) throws -> T) throws -> T {
        let mock = try MockProcess(arguments: ["--max-streams", String(streams)])
        defer { mock.stop() }
        return try body(mock.port)
    }

    private func withMockAsync<T>(_ body: (Int) async throws -> T) async throws -> T {
        let mock = try MockProcess(arguments: ["--max-streams", String(streams)])
        defer { mock.stop() }
        return try await body(mock.port)
    }
}
