import NIOConcurrencyHelpers

/// Figures an action wrote down: lines for the notes column, and named values for the checks.
final class Notebook: Sendable {
    private let state = NIOLockedValueBox<(lines: [String], facts: [String: Double])>(([], [:]))
    func add(_ line: String) { state.withLockedValue { $0.lines.append(line) } }
    func set(_ fact: String, _ value: Double) { state.withLockedValue { $0.facts[fact] = value } }
    var lines: [String] { state.withLockedValue { $0.lines } }
    var facts: [String: Double] { state.withLockedValue { $0.facts } }
}
