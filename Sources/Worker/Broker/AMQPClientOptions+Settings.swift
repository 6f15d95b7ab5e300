public import AMQP
import Foundation
public import WorkerConfiguration

extension AMQPClientOptions {
    /// The client options the `amqp` section describes; the password file, when set, replaces every
    /// URL's password (so none needs to be written in the configuration).
    public init(settings: AMQPSection) throws {
        var endpoints = try settings.urls.map { try AMQPEndpoint(url: $0) }
        if let file = settings.passwordFile {
            let password = try String(contentsOfFile: file, encoding: .utf8).trimmingCharacters(in: .newlines)
            for index in endpoints.indices { endpoints[index].password = password }
        }
        self.init(endpoints: endpoints)
        heartbeatSeconds = Int(settings.heartbeat.components.seconds)
        connectTimeout = settings.connectTimeout
        connectionName = settings.connectionName
        tls = AMQPTLSOptions(
            caFile: settings.tls.caFile,
            certificateFile: settings.tls.certificateFile,
            keyFile: settings.tls.keyFile,
            verifyPeer: settings.tls.verifyPeer,
            verifyHostname: settings.tls.verifyHostname
        )
    }
}
