public import Foundation
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

    /// A certificate credential that expires within this window draws a warning (the alert rule in
    /// deploy/prometheus uses the same 30 days).
    public static let certificateWarningWindow: TimeInterval = 30 * 86_400

    /// The problems of settings that already loaded: credentials and the files outside them.
    public static func problems(_ settings: WorkerSettings) -> [ConfigurationProblem] {
        check(settings).problems
    }

    /// Problems (the worker would refuse to start, or APNs would refuse the credential: an expired
    /// certificate) and warnings (a certificate that expires within ``certificateWarningWindow``).
    public static func check(_ settings: WorkerSettings, now: Date = Date()) -> (problems: [ConfigurationProblem], warnings: [ConfigurationProblem]) {
        var problems: [ConfigurationProblem] = []
        var warnings: [ConfigurationProblem] = []
        do {
            let registry = try CredentialRegistry.load(settings)
            for entry in registry.entries {
                guard let notAfter = entry.certificateNotAfter else { continue }
                let path = certificatePath(of: entry.settings, in: settings)
                let day = ISO8601DateFormatter.string(from: notAfter, timeZone: TimeZone(identifier: "UTC")!, formatOptions: [.withFullDate])
                if notAfter <= now {
                    problems.append(ConfigurationProblem(path: path, message: "the certificate expired on \(day): APNs refuses it; renew it in Apple's developer portal"))
                } else if notAfter.timeIntervalSince(now) < certificateWarningWindow {
                    let days = Int(notAfter.timeIntervalSince(now) / 86_400)
                    warnings.append(ConfigurationProblem(path: path, message: "the certificate expires on \(day), in \(days) day(s): renew it in Apple's developer portal"))
                }
            }
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
        return (problems, warnings)
    }

    /// The key path of a certificate credential's certificate file, for messages.
    private static func certificatePath(of credential: CredentialSettings, in settings: WorkerSettings) -> String {
        let index = settings.credentials.firstIndex { $0.name == credential.name } ?? 0
        let key = if case .pem = credential.kind { "certificate_file" } else { "p12_file" }
        return KeyPath.child(KeyPath.index("credentials", index), key)
    }
}
