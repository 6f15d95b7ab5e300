import Foundation
import Testing
import TestSupport
import WorkerConfiguration

/// Configuration texts and helpers shared by the tests.
enum Sample {
    /// One valid token credential; the loader does not open files, so its key path need not exist.
    static let credential = """
        credentials:
          - name: main
            team_id: TEAMID0001
            key_id: TESTKEY001
            key_file: /keys/main.p8

        """

    /// The repository root (tests find `config/` from the fixtures folder, not the working directory).
    static let repositoryRoot: URL = Fixtures.directory.deletingLastPathComponent().deletingLastPathComponent()

    static func configFile(_ name: String) -> String {
        repositoryRoot.appendingPathComponent("config").appendingPathComponent(name).path
    }

    /// The problems loading `yaml` reports; records an issue when it loads without any.
    static func problems(_ yaml: String, environment: [String: String] = [:]) -> [ConfigurationProblem] {
        do {
            _ = try WorkerSettingsLoader.load(yaml: yaml, environment: environment)
            Issue.record("expected problems, but the configuration loaded")
            return []
        } catch {
            return error.problems
        }
    }

    /// The problems loading the registry of `settings` reports; records an issue when it loads.
    static func registryProblems(_ settings: WorkerSettings) -> [ConfigurationProblem] {
        do {
            _ = try CredentialRegistry.load(settings)
            Issue.record("expected problems, but the credentials loaded")
            return []
        } catch {
            return error.problems
        }
    }
}
