import AMQP
import ArgumentParser
import Logging
import ServiceLifecycle
import UnixSignals
import Worker
import WorkerConfiguration

/// `apns-worker run`: the worker itself, until SIGTERM or SIGINT (then it drains and exits 0).
struct RunCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "run",
        abstract: "Consume jobs, send them through APNs, publish results; drain gracefully on SIGTERM/SIGINT."
    )

    @OptionGroup var options: ConfigOptions

    func run() async throws {
        let (settings, credentials) = try options.settingsAndCredentials()
        WorkerLogging.bootstrap(settings.log)
        let logger = Logger(label: "apns.worker")
        let amqp = AMQPClient(options: try settings.amqp.clientOptions(), logger: logger)
        let worker = WorkerService(settings: settings, credentials: credentials, amqp: amqp, logger: logger)
        let group = ServiceGroup(
            configuration: ServiceGroupConfiguration(
                services: [.init(service: worker)],
                gracefulShutdownSignals: [.sigterm, .sigint],
                logger: logger
            )
        )
        try await group.run()
    }
}
