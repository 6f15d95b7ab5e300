/// Collects problems while one configuration is read; decoding carries on past each so all are reported.
///
/// A class so the readers of nested sections can all append to one list; it never leaves the loading call.
final class ProblemLog {
    private(set) var problems: [ConfigurationProblem] = []

    var isEmpty: Bool { problems.isEmpty }

    func report(_ path: String, _ message: String) {
        problems.append(ConfigurationProblem(path: path, message: message))
    }

    func append(_ more: [ConfigurationProblem]) {
        problems.append(contentsOf: more)
    }
}
