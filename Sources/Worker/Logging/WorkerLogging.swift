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
        // A broker password that is its user's name (RabbitMQ's guest/guest) is no secret: the user
        // name is in every URL the logs show, and redacting it would show it in some lines and hide it
        // in others. Only the broker's own user counts; any other secret is always redacted.
        for endpoint in endpoints where endpoint.password != endpoint.user {
            Redactor.register(endpoint.password)
        }
        // The password file stands in for every URL's password. Read as the configuration reads it,
        // so what is redacted is exactly the secret in use.
        if let file = settings.amqp.passwordFile, let password = try? SecretFile.read(file) {
            if !endpoints.contains(where: { $0.user == password }) { Redactor.register(password) }
        }
        for credential in settings.credentials {
            guard case .pkcs12(_, let passwordFile?) = credential.kind, let password = try? SecretFile.read(passwordFile) else { continue }
            Redactor.register(password)
        }
    }
}
