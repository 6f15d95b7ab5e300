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
        // One pass: a refused value elsewhere does not stop the key and certificate files being opened.
        let check = ConfigurationCheck.check(path: options.path, environment: ProcessInfo.processInfo.environment)
        for warning in check.warnings {
            FileHandle.standardError.write(Data("warning: \(warning.path): \(warning.message)\n".utf8))
        }
        guard let settings = check.settings, check.problems.isEmpty else {
            ConfigOptions.report(check.problems)
            throw ExitCode(78)
        }
        print("configuration OK: \(settings.credentials.count) credential(s): \(settings.credentials.map(\.name).joined(separator: ", "))")
    }
}
