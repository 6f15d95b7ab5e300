import Synchronization

/// Figures an action wrote down: lines for the notes column, and named values for the checks.
final class Notebook: Sendable {
    private let state = Mutex<(lines: [String], facts: [String: Double])>(([], [:]))
    func add(_ line: String) { state.withLock { $0.lines.append(line) } }
    func set(_ fact: String, _ value: Double) { state.withLock { $0.facts[fact] = value } }
    var lines: [String] { state.withLock { $0.lines } }
    var facts: [String: Double] { state.withLock { $0.facts } }
}
