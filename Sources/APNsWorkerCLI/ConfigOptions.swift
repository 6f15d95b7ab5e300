import ArgumentParser
import Foundation
import Worker
import WorkerConfiguration

/// `--config`, shared by every subcommand that talks to the broker.
struct ConfigOptions: ParsableArguments {
    @Option(help: "The YAML configuration (default: $APNS_WORKER_CONFIG, else built-in defaults). Any key can be overridden with APNS_WORKER__<PATH> variables; see config/README.md.")
    var config: String?

    var path: String? { config ?? ProcessInfo.processInfo.environment["APNS_WORKER_CONFIG"] }

    /// The settings, or every problem printed to stderr and exit status 78 (EX_CONFIG).
    func settings() throws -> WorkerSettings {
        do {
            let settings = try WorkerSettingsLoader.load(path: path, environment: ProcessInfo.processInfo.environment)
            // Before anything can log: every secret the configuration names is redacted from then on.
            WorkerLogging.registerSecrets(of: settings)
            return settings
        } catch {
            Self.report(error.problems)
            throw ExitCode(78)
        }
    }

    /// The settings and loaded credentials, or every problem and exit status 78.
    func settingsAndCredentials() throws -> (WorkerSettings, CredentialRegistry) {
        let settings = try settings()
        do {
            return (settings, try CredentialRegistry.load(settings))
        } catch {
            Self.report(error.problems)
            throw ExitCode(78)
        }
    }

    static func report(_ problems: [ConfigurationProblem]) {
        FileHandle.standardError.write(Data("configuration has \(problems.count) problem(s):\n".utf8))
        for problem in problems { FileHandle.standardError.write(Data("  \(problem)\n".utf8)) }
    }
}
