import Foundation

/// Reads the worker's configuration: the YAML file, then `APNS_WORKER__…` environment overrides, then
/// validation of every key's shape and range.
public enum WorkerSettingsLoader {
    /// The prefix of environment variables that override keys: `APNS_WORKER__AMQP__HEARTBEAT=30s`.
    public static let environmentPrefix = EnvironmentOverrides.prefix

    /// Parses the YAML at `path` (or starts from defaults when `path` is nil), applies environment
    /// overrides, and validates shapes and ranges.
    ///
    /// - Throws: ``ConfigurationProblems`` listing every problem found, not just the first.
    public static func load(path: String?, environment: [String: String]) throws(ConfigurationProblems) -> WorkerSettings {
        guard let path else { return try load(yaml: "", environment: environment) }
        guard let data = FileManager.default.contents(atPath: path), let yaml = String(data: data, encoding: .utf8) else {
            throw ConfigurationProblems([ConfigurationProblem(path: "", message: "cannot read configuration file \(path)")])
        }
        return try load(yaml: yaml, environment: environment)
    }

    /// Parses `yaml`, applies environment overrides, and validates shapes and ranges.
    ///
    /// - Throws: ``ConfigurationProblems`` listing every problem found, not just the first.
    public static func load(yaml: String, environment: [String: String]) throws(ConfigurationProblems) -> WorkerSettings {
        let (settings, problems) = read(yaml: yaml, environment: environment)
        guard let settings, problems.isEmpty else { throw ConfigurationProblems(problems) }
        return settings
    }

    /// Reads the file at `path` as far as it goes: the settings (with placeholders where a value was
    /// refused) and every problem. Settings are `nil` only when the file cannot be read or is not YAML.
    /// For `check-config`, which goes on to the files the readable parts name.
    static func read(path: String?, environment: [String: String]) -> (WorkerSettings?, [ConfigurationProblem]) {
        guard let path else { return read(yaml: "", environment: environment) }
        guard let data = FileManager.default.contents(atPath: path), let yaml = String(data: data, encoding: .utf8) else {
            return (nil, [ConfigurationProblem(path: "", message: "cannot read configuration file \(path)")])
        }
        return read(yaml: yaml, environment: environment)
    }

    static func read(yaml: String, environment: [String: String]) -> (WorkerSettings?, [ConfigurationProblem]) {
        let log = ProblemLog()
        // A file that is not YAML has no keys to check; overrides on top of it would only add noise.
        guard var root = ConfigNode.parse(yaml: yaml, origin: nil, path: "", log: log) else {
            return (nil, log.problems)
        }
        EnvironmentOverrides.apply(environment, to: &root, log: log)
        var settings = WorkerSettings.decode(root, log: log)
        settings.apns.applyProxyEnvironment(environment, log: log)
        return (settings, log.problems)
    }
}
