import Foundation
import Worker

/// What the worker's log redaction costs per logged line (``Redactor``): every line it logs, and every
/// metadata value, passes through it. A flood of malformed jobs logs one warning each.
struct RedactionBenchmark {
    let timing: PerOperation

    /// A line as the worker logs it: the message and its metadata values.
    private struct Line {
        let name: String
        let message: String
        let metadata: [String]
    }

    private static let lines = [
        Line(name: "a malformed job's warning", message: "malformed job", metadata: [
            "\"order-4711\"", "InvalidField", "device_token must be 64 or more hexadecimal digits, got 12 characters",
        ]),
        Line(name: "a line with a device token and a bearer token", message: "APNs refused the credential", metadata: [
            String(repeating: "ab12", count: 16), "bearer eyJhbGciOiJFUzI1NiJ9.eyJpc3MiOiJUIn0.c2lnbmF0dXJl", "InvalidProviderToken",
        ]),
        Line(name: "a line with nothing to redact", message: "worker consuming", metadata: ["apns.jobs (prefetch 500)", "1000"]),
    ]

    func run() {
        print("log redaction, \(timing.batches) batches × \(timing.perBatch) lines, medians per line (message and metadata):")
        for line in Self.lines {
            let cost = timing.measure {
                _ = Redactor.redact(line.message)
                for value in line.metadata { _ = Redactor.redact(value) }
            }
            let name = line.name.padding(toLength: 48, withPad: " ", startingAt: 0)
            print("  \(name)" + String(format: "%8.1f µs  (p10 %.1f, p90 %.1f)", cost.median, cost.p10, cost.p90))
        }
    }
}
