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
        // One load and one check: the credentials (keys read, certificates opened) are loaded once.
        let settings = try options.settings()
        let check = ConfigurationCheck.check(settings)
        guard check.problems.isEmpty else {
            ConfigOptions.report(check.problems)
            throw ExitCode(78)
        }
        for warning in check.warnings {
            FileHandle.standardError.write(Data("warning: \(warning.path): \(warning.message)\n".utf8))
        }
        print("configuration OK: \(settings.credentials.count) credential(s): \(settings.credentials.map(\.name).joined(separator: ", "))")
    }
}
