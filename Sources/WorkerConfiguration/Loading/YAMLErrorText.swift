import Yams

/// Yams' errors in one line, without the snippet of source Yams would quote: problems are one per line,
/// and the quoted lines could hold a broker URL's password.
enum YAMLErrorText {
    static func describe(_ error: any Error) -> String {
        guard let error = error as? YamlError else { return flatten("\(error)") }
        switch error {
        case let .scanner(context, problem, mark, _), let .parser(context, problem, mark, _), let .composer(context, problem, mark, _):
            return "line \(mark.line), column \(mark.column): " + (context.map { "\($0.text), " } ?? "") + problem
        case let .reader(problem, _, _, _):
            return problem
        case let .duplicatedKeysInMapping(duplicates, context):
            let keys = duplicates.sorted().joined(separator: ", ")
            return "the mapping at line \(context.mark.line) has duplicated keys: \(keys)"
        default:
            return flatten("\(error)")
        }
    }

    private static func flatten(_ text: String) -> String {
        text.split(whereSeparator: \.isNewline).joined(separator: " ")
    }
}
