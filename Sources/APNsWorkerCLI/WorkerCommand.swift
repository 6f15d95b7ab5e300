import AMQP
import ArgumentParser
import CAllocator
import HTTP2
import TLS

/// `apns-worker`: the one executable users run.
@main
struct WorkerCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "apns-worker",
        abstract: "Delivers Apple push notifications from RabbitMQ jobs over pooled HTTP/2 connections.",
        subcommands: [
            RunCommand.self, SendCommand.self, DeclareCommand.self, CheckConfigCommand.self, PublishCommand.self,
            ResultsCommand.self, DeadLettersCommand.self, ChannelsCommand.self, VersionCommand.self,
        ]
    )
}

/// `apns-worker version`.
struct VersionCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "version", abstract: "Print the version and the C libraries in use.")

    static let version = "0.2.0"

    func run() {
        print("apns-worker \(Self.version) (rabbitmq-c \(AMQPLibrary.version), nghttp2 \(HTTP2Library.version), \(OpenSSLLibrary.version), \(String(cString: CAllocator_description())))")
    }
}
