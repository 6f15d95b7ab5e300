import Foundation
import TLS

/// `check-config`: everything the worker would refuse at start, found without connecting anywhere.
public enum ConfigurationCheck {
    /// Loads the configuration and its credentials and checks the other files it names (CA files, the
    /// broker password file), returning every problem; empty means the worker would start.
    public static func problems(path: String?, environment: [String: String]) -> [ConfigurationProblem] {
        let settings: WorkerSettings
        do {
            settings = try WorkerSettingsLoader.load(path: path, environment: environment)
        } catch {
            return error.problems
        }
        return problems(settings)
    }

    /// The problems of settings that already loaded: credentials and the files outside them.
    public static func problems(_ settings: WorkerSettings) -> [ConfigurationProblem] {
        var problems: [ConfigurationProblem] = []
        do {
            _ = try CredentialRegistry.load(settings)
        } catch {
            problems += error.problems
        }
        if let caFile = settings.apns.caFile {
            do {
                _ = try TLSContext(client: TLSClientConfiguration(trustsSystemStore: false, additionalTrustedCAFile: caFile))
            } catch {
                problems.append(ConfigurationProblem(path: "apns.ca_file", message: (error as? TLSError)?.message ?? "\(error)"))
            }
        }
        do {
            _ = try settings.amqp.clientOptions()
        } catch {
            problems += error.problems
        }
        let brokerFiles = [
            ("amqp.tls.ca_file", settings.amqp.tls.caFile),
            ("amqp.tls.certificate_file", settings.amqp.tls.certificateFile),
            ("amqp.tls.key_file", settings.amqp.tls.keyFile),
        ]
        for case let (path, file?) in brokerFiles where !FileManager.default.isReadableFile(atPath: file) {
            problems.append(ConfigurationProblem(path: path, message: "cannot read \(file)"))
        }
        return problems
    }
}
