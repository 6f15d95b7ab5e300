/// Every problem found in one configuration, so an operator fixes them in one round rather than one by one.
public struct ConfigurationProblems: Error, Sendable, CustomStringConvertible {
    /// In the order found: file order, then credentials' files.
    public let problems: [ConfigurationProblem]

    public init(_ problems: [ConfigurationProblem]) {
        self.problems = problems
    }

    /// One problem per line.
    public var description: String { problems.map(\.description).joined(separator: "\n") }
}
