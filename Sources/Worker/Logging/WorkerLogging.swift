import AMQP
import Foundation
import Logging
public import WorkerConfiguration

/// Sets up swift-log once per process from the `log` section: level, text or JSON lines on stderr,
/// and the redaction every line passes through.
public enum WorkerLogging {
    public static func bootstrap(_ settings: LogSection) {
        let level = Logger.Level(rawValue: settings.level.rawValue) ?? .info
        LoggingSystem.bootstrap { label in
            var handler = RedactingLogHandler(wrapping: LineLogHandler(label: label, format: settings.format))
            handler.logLevel = level
            return handler
        }
    }

    /// Registers every secret the configuration names (broker passwords, from URLs or the password
    /// file; .p12 passwords) with the ``Redactor``, before anything is logged.
    public static func registerSecrets(of settings: WorkerSettings) {
        let endpoints = settings.amqp.urls.compactMap { try? AMQPEndpoint(url: $0) }
        // A password that is its user's name (RabbitMQ's guest/guest) is no secret: the user name is in
        // every URL the logs show, and redacting it would show it in some lines and hide it in others.
        let users = Set(endpoints.map(\.user))
        func register(_ password: String) {
            if !users.contains(password) { Redactor.register(password) }
        }
        for endpoint in endpoints { register(endpoint.password) }
        let files = [settings.amqp.passwordFile] + settings.credentials.map { credential -> String? in
            if case .pkcs12(_, let passwordFile) = credential.kind { return passwordFile }
            return nil
        }
        for case let file? in files {
            if let text = try? String(contentsOfFile: file, encoding: .utf8) {
                register(text.trimmingCharacters(in: .newlines))
            }
        }
    }
}
