public import Foundation
import AMQPConfiguration
import APNsCore
import TLS

/// `check-config`: everything the worker would refuse at start, found without connecting anywhere.
public enum ConfigurationCheck {
    /// What a check found: the settings when the file could be read as YAML (with placeholders where a
    /// value was refused), every problem (the worker would not start), and warnings.
    public struct Report: Sendable {
        public let settings: WorkerSettings?
        public var problems: [ConfigurationProblem]
        public var warnings: [ConfigurationProblem]
    }

    /// Loads the configuration at `path` and checks every file it names (keys, certificates, CA files,
    /// the broker password file), reporting every problem at once: a refused key elsewhere does not
    /// hide a missing key file. Only the parts whose own values were refused are not opened.
    public static func check(path: String?, environment: [String: String], now: Date = Date()) -> Report {
        let (settings, problems) = WorkerSettingsLoader.read(path: path, environment: environment)
        guard let settings else { return Report(settings: nil, problems: problems, warnings: []) }
        var report = check(settings, refused: problems.map(\.path), now: now)
        report.problems = problems + report.problems
        return report
    }

    /// Every problem of the configuration at `path`; empty means the worker would start.
    public static func problems(path: String?, environment: [String: String]) -> [ConfigurationProblem] {
        check(path: path, environment: environment).problems
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
        let report = check(settings, refused: [], now: now)
        return (report.problems, report.warnings)
    }

    /// The files `settings` names, except under the key paths in `refused` (values already reported,
    /// standing in as placeholders).
    private static func check(_ settings: WorkerSettings, refused: [String], now: Date) -> Report {
        var report = Report(settings: settings, problems: [], warnings: [])
        func isRefused(_ path: String) -> Bool {
            refused.contains { $0 == path || $0.hasPrefix(path + ".") || $0.hasPrefix(path + "[") }
        }
        // Settings that loaded cleanly were not cross-checked against each other yet (tests build them).
        if refused.isEmpty { report.problems += CredentialCrossCheck.problems(settings.credentials) }
        for (index, credential) in settings.credentials.enumerated() {
            let path = KeyPath.index("credentials", index)
            let unloadable = refused.contains { $0 == path } || CredentialSettings.authenticationKeys.contains { isRefused(KeyPath.child(path, $0)) }
            guard !unloadable else { continue }
            do {
                let loaded = try CredentialLoader.authentication(for: credential.kind, path: path, clock: SystemWallClock())
                if let notAfter = loaded.certificateNotAfter {
                    checkExpiry(notAfter, path: certificatePath(of: credential, at: path), now: now, into: &report)
                }
            } catch {
                report.problems += error.problems
            }
        }
        if let caFile = settings.apns.caFile, !isRefused("apns.ca_file") {
            do {
                _ = try TLSContext(client: TLSClientConfiguration(trustsSystemStore: false, additionalTrustedCAFile: caFile))
            } catch {
                report.problems.append(ConfigurationProblem(path: "apns.ca_file", message: (error as? TLSError)?.message ?? "\(error)"))
            }
        }
        guard !isRefused("amqp") else { return report }
        // RabbitMQ's URI spec has query parameters (?heartbeat=5); the parser skips them, and a reader
        // of the file would think they count.
        for (index, url) in settings.amqp.urls.enumerated() {
            guard let query = url.split(separator: "?", maxSplits: 1).dropFirst().first else { continue }
            let keys = query.split(separator: "&").map { $0.split(separator: "=").first.map(String.init) ?? "" }
            report.warnings.append(ConfigurationProblem(
                path: KeyPath.index("amqp.urls", index),
                message: "its query (\(keys.joined(separator: ", "))) is not read: heartbeat, timeouts and TLS are the amqp.* keys"
            ))
        }
        do {
            _ = try settings.amqp.clientOptions()
        } catch {
            report.problems += error.problems
        }
        let brokerFiles = [
            ("amqp.tls.ca_file", settings.amqp.tls.caFile),
            ("amqp.tls.certificate_file", settings.amqp.tls.certificateFile),
            ("amqp.tls.key_file", settings.amqp.tls.keyFile),
        ]
        var readable = true
        for case let (path, file?) in brokerFiles where !FileManager.default.isReadableFile(atPath: file) {
            report.problems.append(ConfigurationProblem(path: path, message: "cannot read \(file)"))
            readable = false
        }
        // What an amqps connection would load: a key readable by others, a certificate its key does not
        // match, a CA file that is not PEM.
        if readable, let options = try? settings.amqp.clientOptions(), options.endpoints.contains(where: \.usesTLS) || settings.amqp.tls.certificateFile != nil {
            do {
                try options.tls.validate()
            } catch {
                report.problems.append(ConfigurationProblem(path: "amqp.tls", message: "\(error.operation): \(error.message)"))
            }
        }
        return report
    }

    private static func checkExpiry(_ notAfter: Date, path: String, now: Date, into report: inout Report) {
        let day = ISO8601DateFormatter.string(from: notAfter, timeZone: TimeZone(identifier: "UTC")!, formatOptions: [.withFullDate])
        if notAfter <= now {
            report.problems.append(ConfigurationProblem(path: path, message: "the certificate expired on \(day): APNs refuses it; renew it in Apple's developer portal"))
        } else if notAfter.timeIntervalSince(now) < certificateWarningWindow {
            let days = Int(notAfter.timeIntervalSince(now) / 86_400)
            report.warnings.append(ConfigurationProblem(path: path, message: "the certificate expires on \(day), in \(days) day(s): renew it in Apple's developer portal"))
        }
    }

    /// The key path of a certificate credential's certificate file, for messages.
    private static func certificatePath(of credential: CredentialSettings, at path: String) -> String {
        KeyPath.child(path, { if case .pem = credential.kind { "certificate_file" } else { "p12_file" } }())
    }
}
