import ArgumentParser
import Foundation
import WorkerConfiguration

/// `apns-worker check-config`: every problem at once, each with its key path; exit 0 when there is none.
struct CheckConfigCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "check-config",
        abstract: "Validate the configuration and the credentials it names; report every problem with its key path."
    )

    @OptionGroup var options: ConfigOptions

    func run() throws {
        let problems = ConfigurationCheck.problems(path: options.path, environment: ProcessInfo.processInfo.environment)
        guard problems.isEmpty else {
            ConfigOptions.report(problems)
            throw ExitCode(78)
        }
        let settings = try options.settings()
        for warning in ConfigurationCheck.check(settings).warnings {
            FileHandle.standardError.write(Data("warning: \(warning.path): \(warning.message)\n".utf8))
        }
        print("configuration OK: \(settings.credentials.count) credential(s): \(settings.credentials.map(\.name).joined(separator: ", "))")
    }
}
