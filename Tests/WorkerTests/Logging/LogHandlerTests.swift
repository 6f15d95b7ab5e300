import Foundation
import JSON
import Logging
import Testing
import WorkerConfiguration
@testable import Worker
import NIOConcurrencyHelpers

/// What a job can put in a log line, and what the line must still be.
@Suite("Log lines stay lines, whatever a job contains")
struct LogHandlerTests {
    /// Values a hostile job can get into a log: line breaks, terminal escapes, quotes, NUL, separators,
    /// repaired bad UTF-8, and a lot of it.
    static let hostile = [
        "alert\r\n2026-11-23T00:00:00Z critical worker: forged line", "\u{1B}[31mred", "quote\"and\\slash", "nul\u{0}byte",
        "sep\u{2028}arator\u{85}", String(decoding: [0x66, 0xFF, 0xC0, 0x6F], as: UTF8.self), String(repeating: "x", count: 100_000),
    ]

    final class Lines: Sendable {
        private let collected = NIOLockedValueBox<[[UInt8]]>([])
        var all: [[UInt8]] { collected.withLockedValue { $0 } }
        var output: LogOutput { LogOutput { line in self.collected.withLockedValue { $0.append(line) } } }
    }

    @Test("text: one line per event, control characters escaped in the message, keys and values")
    func text() {
        let lines = Lines()
        let logger = Logger(label: "worker") { LineLogHandler(label: $0, format: .text, output: lines.output) }
        for value in Self.hostile {
            logger.warning("malformed job \(value)", metadata: ["push_type": "\(value)", "key\nforged": "v"])
        }
        #expect(lines.all.count == Self.hostile.count)
        for line in lines.all {
            #expect(line.last == 0x0A)
            #expect(!line.dropLast().contains(0x0A) && !line.contains(0x0D) && !line.contains(0x00) && !line.contains(0x1B), "\(String(decoding: line.prefix(200), as: UTF8.self))")
            #expect(!String(decoding: line, as: UTF8.self).contains("\u{2028}"))
        }
        #expect(String(decoding: lines.all[0], as: UTF8.self).contains(#"alert\r\n2026-11-23T00:00:00Z critical"#))
    }

    @Test("JSON: one valid object per line, holding exactly what was logged")
    func json() throws {
        let lines = Lines()
        let logger = Logger(label: "worker") { LineLogHandler(label: $0, format: .json, output: lines.output) }
        for value in Self.hostile {
            logger.error("\(value)", metadata: ["detail": "\(value)", "list": ["\(value)", "b"], "level": "forged", "nested": ["k": "\(value)"]])
        }
        #expect(lines.all.count == Self.hostile.count)
        for (line, value) in zip(lines.all, Self.hostile) {
            #expect(line.last == 0x0A && !line.dropLast().contains(0x0A))
            guard case .object(let object) = try JSONReader.parse(Array(line.dropLast())) else { Issue.record("not an object"); continue }
            #expect(object["message"] == .string(value))
            #expect(object["detail"] == .string(value))
            #expect(object["list"] == .array([.string(value), .string("b")]))
            #expect(object["nested"] == .object(["k": .string(value)]))
            #expect(object["level"] == .string("error"), "metadata cannot replace the line's own fields")
            #expect(object["label"] == .string("worker"))
        }
    }
}
