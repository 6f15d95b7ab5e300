/// A setting that cannot work, named by what it configures.
public struct ConfigurationError: Error, Hashable, Sendable, CustomStringConvertible {
    /// What was being configured, e.g. "token refresh age" or "team id".
    public let setting: String
    /// Why the value is refused and what is allowed.
    public let problem: String

    public init(setting: String, problem: String) {
        self.setting = setting
        self.problem = problem
    }

    public var description: String { "\(setting): \(problem)" }
}
