import AMQP
import ArgumentParser
import Logging
import Worker
import WorkerConfiguration

/// `apns-worker declare`: creates the exchanges, queues and bindings, idempotently.
struct DeclareCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "declare", abstract: "Declare every exchange, queue and binding the worker uses (idempotent).")

    @OptionGroup var options: ConfigOptions

    func run() async throws {
        let settings = try options.settings()
        WorkerLogging.bootstrap(settings.log)
        let amqp = AMQPClient(options: try AMQPClientOptions(settings: settings.amqp), logger: Logger(label: "apns.declare"))
        let topology = Topology(settings: settings.topology)
        try await amqp.connect()
        try await amqp.declare(exchanges: topology.exchanges, queues: topology.queues, bindings: topology.bindings)
        await amqp.close()
        for exchange in topology.exchanges { print("exchange \(exchange.name) (\(exchange.type.rawValue))") }
        for queue in topology.queues { print("queue    \(queue.name)") }
        for binding in topology.bindings { print("binding  \(binding.exchange) -[\(binding.routingKey)]-> \(binding.queue)") }
    }
}
