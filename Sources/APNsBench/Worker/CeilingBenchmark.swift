import Worker
import AMQP
import APNsClient
import APNsCore
import Foundation
import Logging
import WorkerConfiguration

/// The most any worker could do on this machine: the limit loop plus one HTTP/2 request per job to the
/// mock APNs, through the same client and connections as the worker, with nothing decoded, checked
/// or built. The same processes share the cores as in the worker run (broker, mock, one client), so
/// ceiling ÷ limit is what the mock and the HTTP/2 exchange alone leave of the broker's limit, and
/// worker ÷ ceiling is the share of that the worker keeps.
extension WorkerBenchmark {
    func ceiling(count: Int, prefetch: Int, connections: Int) async throws -> Throughput {
        let environment = try BenchEnvironment(prefetch: prefetch, connections: connections)
        let amqp = try await environment.client("ceiling")
        try await JobLoader.load(count, into: amqp, topology: environment.settings.topology)
        var logger = Logger(label: "ceiling")
        logger.logLevel = .error
        let apns = APNsClient(configuration: environment.settings.clientConfiguration, logger: logger)
        defer { apns.shutdown() }
        let credential = try ClientBenchmark.credential()
        let endpoint = APNsEndpoint(host: "localhost", port: environment.mock.port)
        // Realistic alerts to a fixed device, each with an apns-id as the worker's requests have, built
        // before the clock starts so only the exchange is measured.
        let payload = JobLoader.payload(index: 1)
        let requests = try (0..<1_000).map { _ in
            try NotificationRequest(deviceToken: DeviceToken(hex: String(repeating: "ab", count: 32)), topic: "com.example.app", apnsID: APNsID.random(), payload: payload)
        }
        // Opens the connections and ramps their stream limits, as the worker's first jobs do.
        for _ in 0..<(connections * 4) { _ = try await apns.send(requests[0], credential: credential, endpoint: endpoint) }

        let topology = environment.settings.topology
        return try await Self.answer(count, on: amqp, in: environment, loop: "ceiling loop") { delivery in
            _ = try? await apns.send(requests[Int(delivery.deliveryTag % 1_000)], credential: credential, endpoint: endpoint)
            await Self.answerLikeTheLimit(delivery, on: amqp, topology: topology)
        }
    }
}
