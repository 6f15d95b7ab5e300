import DeadLetterTools
import Foundation
import JSON
import Worker

/// The selected dead letters grouped by reason, the way an operator triages them: how many, how old,
/// whose.
struct DeadLetterSummary {
    private struct Group {
        var count = 0
        var oldest: Date?
        var newest: Date?
        var credentials: Set<String> = []
        var topics: Set<String> = []
    }

    private var groups: [String: Group] = [:]

    /// Whether no letter was selected.
    var isEmpty: Bool { groups.isEmpty }

    mutating func add(_ letter: DeadLetter, _ outcome: DeadLetterSweep.Outcome) {
        var group = groups[letter.reason, default: Group()]
        group.count += 1
        if let at = letter.deadLetteredAt {
            group.oldest = min(group.oldest ?? at, at)
            group.newest = max(group.newest ?? at, at)
        }
        if let credential = letter.credential { group.credentials.insert(credential) }
        if let topic = letter.topic { group.topics.insert(topic) }
        groups[letter.reason] = group
    }

    /// One row per reason, the largest first.
    func table(now: Date) -> String {
        guard !groups.isEmpty else { return "no dead letters selected" }
        let rows = groups.sorted { ($0.value.count, $1.key) > ($1.value.count, $0.key) }.map { reason, group in
            [reason, "\(group.count)", Self.age(group.oldest, now: now), Self.age(group.newest, now: now), Self.few(group.credentials), Self.few(group.topics)]
        }
        let header = ["reason", "count", "oldest", "newest", "credentials", "topics"]
        let widths = header.indices.map { column in ([header] + rows).map { $0[column].count }.max() ?? 0 }
        return ([header] + rows).map { row in
            row.indices.map { column in
                let cell = row[column]
                let padding = String(repeating: " ", count: widths[column] - cell.count)
                return column == 1 ? padding + cell : cell + padding
            }.joined(separator: "  ").trimmingCharacters(in: .whitespaces)
        }.joined(separator: "\n")
    }

    /// `3d4h`, `12m`, `45s`; `-` when unknown.
    static func age(_ date: Date?, now: Date) -> String {
        guard let date else { return "-" }
        let seconds = max(0, Int(now.timeIntervalSince(date)))
        switch seconds {
        case ..<60: return "\(seconds)s"
        case ..<3600: return "\(seconds / 60)m"
        case ..<86_400: return "\(seconds / 3600)h\(seconds % 3600 / 60)m"
        default: return "\(seconds / 86_400)d\(seconds % 86_400 / 3600)h"
        }
    }

    /// Up to three names, then how many more.
    private static func few(_ names: Set<String>) -> String {
        guard !names.isEmpty else { return "-" }
        let sorted = names.sorted()
        let shown = sorted.prefix(3).joined(separator: ",")
        return sorted.count > 3 ? "\(shown) +\(sorted.count - 3)" : shown
    }

    /// One letter as a JSON line (for `--json`): what a script needs to act on it.
    static func jsonLine(_ letter: DeadLetter, _ outcome: DeadLetterSweep.Outcome) -> String {
        var writer = JSONObjectWriter(capacity: 256)
        writer.field("attempts", letter.attempts)
        writer.field("credential", letter.credential)
        writer.field("dead_lettered_at", letter.deadLetteredAt.map(UTCTimestamp.string))
        writer.field("id", letter.jobID)
        writer.field("last_error", letter.lastError)
        writer.field("outcome", outcome.rawValue)
        writer.field("reason", letter.reason)
        writer.field("topic", letter.topic)
        return String(decoding: writer.finish(), as: UTF8.self)
    }

    /// The running counts the progress bar shows.
    static func countsText(_ report: DeadLetterSweep.Report) -> String {
        let shown: [DeadLetterSweep.Outcome] = [.listed, .replayed, .purged, .wouldReplay, .wouldPurge, .failed]
        return shown.compactMap { report[$0] > 0 ? "\(report[$0]) \($0.rawValue)" : nil }.joined(separator: ", ")
    }

    /// The closing line, on every run: what was looked at and what became of it.
    static func totalsLine(_ report: DeadLetterSweep.Report, queue: String, action: DeadLetterSweep.Action) -> String {
        var parts = ["\(queue): looked at \(report.looked) of \(report.ready) ready"]
        let outcomes: [DeadLetterSweep.Outcome] = [.listed, .replayed, .purged, .wouldReplay, .wouldPurge, .failed, .kept]
        parts += outcomes.compactMap { report[$0] > 0 ? "\($0.rawValue) \(report[$0])" : nil }
        if action != .list, report[.replayed] + report[.purged] + report[.wouldReplay] + report[.wouldPurge] == 0 { parts.append("nothing selected") }
        var line = parts.joined(separator: "; ")
        if let stopped = report.stoppedEarly { line += " (stopped early: \(stopped))" }
        if let failure = report.lastFailure { line += "\nlast failure: \(failure)" }
        return line
    }
}
