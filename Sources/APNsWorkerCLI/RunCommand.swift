import AMQP
import ArgumentParser
import Logging
import Metrics
import OperationsHTTP
import Prometheus
import ServiceLifecycle
import UnixSignals
import Worker
import WorkerConfiguration

/// `apns-worker run`: the worker itself, until SIGTERM or SIGINT (then it drains and exits 0).
struct RunCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "run",
        abstract: "Consume jobs, send them through APNs, publish results; drain gracefully on SIGTERM/SIGINT; reload credentials on SIGHUP."
    )

    @OptionGroup var options: ConfigOptions

    func run() async throws {
        let (settings, credentials) = try options.settingsAndCredentials()
        WorkerLogging.bootstrap(settings.log)
        // Metrics first: the worker's and the client's instruments register as they are created.
        let registry = PrometheusCollectorRegistry()
        MetricsSystem.bootstrap(PrometheusMetricsFactory(registry: registry))
        let logger = Logger(label: "apns.worker")
        let worker = try WorkerService(settings: settings, credentials: credentials, logger: logger) {
            // Start-up's code (arguments, YAML, the handshake) would otherwise stay mapped for the
            // process's life, about a third of its RSS: StartupCode says why and how.
            StartupCode.release(after: "start-up", logger: logger)
        }
        // Services stop in reverse order: the worker drains first, while probes still answer.
        var services: [ServiceGroupConfiguration.ServiceConfiguration] = []
        if let port = settings.metrics.port {
            let operations = OperationsServer(
                host: settings.metrics.host, port: port, registry: registry, logger: logger, onScrape: { worker.recordScrapeGauges() }
            ) { worker.readiness() }
            services.append(.init(service: operations))
        }
        services.append(.init(service: worker))
        services.append(.init(service: CredentialReloader(path: options.path, running: settings, worker: worker, logger: logger)))
        let group = ServiceGroup(
            configuration: ServiceGroupConfiguration(services: services, gracefulShutdownSignals: [.sigterm, .sigint], logger: logger)
        )
        try await group.run()
    }
}
