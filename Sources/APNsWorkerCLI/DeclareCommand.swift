import AMQP
import ArgumentParser
import Foundation
import Logging
import Worker
import WorkerConfiguration

/// `apns-worker declare`: creates the exchanges, queues and bindings, idempotently.
struct DeclareCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "declare", abstract: "Declare every exchange, queue and binding the worker uses (idempotent).")

    @OptionGroup var options: ConfigOptions
    @Flag(help: "Print the topology as a RabbitMQ definitions file (for rabbitmqctl import_definitions) instead of declaring it.")
    var printDefinitions = false

    func run() async throws {
        let settings = try options.settings()
        if printDefinitions {
            // The vhost of amqp.urls: a definitions file names it on every object it creates.
            let virtualHost = try settings.amqp.clientOptions().endpoints.first?.virtualHost ?? "/"
            FileHandle.standardOutput.write(Data(Topology(settings: settings.topology).definitions(virtualHost: virtualHost)))
            return
        }
        WorkerLogging.bootstrap(settings.log)
        let amqp = AMQPClient(options: try settings.amqp.clientOptions(), logger: Logger(label: "apns.declare"))
        let topology = Topology(settings: settings.topology)
        try await amqp.connect()
        let warnings = try await topology.declare(on: amqp)
        await amqp.close()
        for exchange in topology.exchanges { print("exchange \(exchange.name) (\(exchange.type.rawValue))") }
        for queue in topology.queues { print("queue    \(queue.name)") }
        for binding in topology.bindings { print("binding  \(binding.exchange) -[\(binding.routingKey)]-> \(binding.destinationName)") }
        for warning in warnings { FileHandle.standardError.write(Data("warning: \(warning)\n".utf8)) }
    }
}
